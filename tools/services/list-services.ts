import { z } from 'zod'
import { UserError } from '../../src/errors.ts'
import { ENTITY_ID_IN_TEXT } from '../../src/home/entities.ts'
import type { HomeView } from '../../src/home/view.ts'
import { fold } from '../../src/home/text.ts'
import { defineTool } from '../../src/mcp/runtime/define-tool.ts'
import { excerpt } from '../../src/shape.ts'
import { slugArg } from '../_shared/args.ts'

interface FieldDescription { name?: string, description?: string, required?: boolean, example?: unknown, selector?: Record<string, unknown> }
interface ServiceDescription { name?: string, description?: string, fields?: Record<string, FieldDescription>, target?: { entity?: Array<{ domain?: string[] }> }, response?: { optional?: boolean } }
type ServiceMap = Record<string, Record<string, ServiceDescription>>

const SEARCH_CAP = 30

/** An example is dropped when it names an entity the reader may not see. */
function safeExample (home: HomeView, example: unknown): string | undefined {
  const text = excerpt(example, 80)
  if (text === undefined) return undefined
  return (text.match(ENTITY_ID_IN_TEXT) ?? []).every(id => home.visible(id)) ? text : undefined
}

function targetDomains (service: ServiceDescription): string[] | undefined {
  const domains = (service.target?.entity ?? []).flatMap(filter => filter.domain ?? [])
  return service.target ? [...new Set(domains)] : undefined
}

function describeService (home: HomeView, domain: string, id: string, service: ServiceDescription): Record<string, unknown> {
  const fields = Object.entries(service.fields ?? {})
    .filter(([, field]) => field && typeof field === 'object' && (field.selector || field.name || field.required))
    .map(([name, field]) => {
      const out: Record<string, unknown> = { name }
      if (field.required) out.required = true
      const selector = field.selector ? Object.keys(field.selector)[0] : undefined
      if (selector) out.selector = selector
      const example = safeExample(home, field.example)
      if (example) out.example = example
      return out
    })
  const out: Record<string, unknown> = { service: `${domain}.${id}`, name: service.name || undefined, description: excerpt(service.description, 150), fields }
  const targets = targetDomains(service)
  if (targets) out.target_domains = targets
  if (service.response) out.returns_response = service.response.optional ? 'optional' : 'only'
  return out
}

export default defineTool({
  name: 'ha_list_services',
  title: 'List services',
  description: 'No args: domains with counts; domain: its services and fields; search: matches across domains (30 max).',
  kind: 'read',
  category: 'services',
  everyday: true,
  keywords: {
    en: 'services actions available what can i do domains fields parameters which services capabilities',
    de: 'dienste aktionen verfügbar was kann ich tun domänen felder parameter',
    fr: 'services actions disponibles que puis je faire domaines champs paramètres',
    es: 'servicios acciones disponibles qué puedo hacer dominios campos parámetros',
    nl: 'diensten services acties beschikbaar wat kan ik doen domeinen velden parameters'
  },
  input: z.object({
    domain: slugArg('domain', 'light').optional(),
    search: z.string().trim().min(2).max(100).optional().describe('Words in ids, names or descriptions.')
  }),
  async handler ({ ha, home }, args) {
    const all = await ha.command<ServiceMap>({ type: 'get_services' })
    if (args.domain) {
      const services = all[args.domain]
      if (!services) {
        const close = Object.keys(all).filter(d => d.includes(args.domain as string) || (args.domain as string).includes(d)).slice(0, 10)
        throw new UserError('HAMCP_NOT_FOUND', `Unknown service domain "${args.domain}".`, close.length ? `Did you mean: ${close.join(', ')}?` : 'Call ha_list_services without arguments to see the domains.')
      }
      let entries = Object.entries(services).sort(([a], [b]) => (a < b ? -1 : 1))
      if (args.search) {
        const words = fold(args.search).split(/\s+/)
        entries = entries.filter(([id, s]) => words.every(w => fold(`${id} ${s.name ?? ''} ${s.description ?? ''}`).includes(w)))
      }
      return { domain: args.domain, total: entries.length, services: entries.map(([id, s]) => describeService(home, args.domain as string, id, s)) }
    }
    if (args.search) {
      const words = fold(args.search).split(/\s+/)
      const hits: Array<Record<string, unknown>> = []
      let total = 0
      for (const [domain, services] of Object.entries(all).sort(([a], [b]) => (a < b ? -1 : 1))) {
        for (const [id, s] of Object.entries(services)) {
          if (!words.every(w => fold(`${domain}.${id} ${s.name ?? ''} ${s.description ?? ''}`).includes(w))) continue
          total++
          if (hits.length < SEARCH_CAP) hits.push({ service: `${domain}.${id}`, name: s.name || undefined, description: excerpt(s.description, 150) })
        }
      }
      const note = total > SEARCH_CAP
        ? `First ${SEARCH_CAP} of ${total} matches; add words or pass domain to narrow.`
        : total === 0 ? 'No service matches; try other words or list domains without arguments.' : undefined
      return { items: hits, returned: hits.length, total, has_more: total > hits.length, next_offset: null, note }
    }
    const domains = Object.entries(all).map(([domain, services]) => ({ domain, services: Object.keys(services).length }))
      .sort((a, b) => (a.domain < b.domain ? -1 : 1))
    return {
      domains,
      total_domains: domains.length,
      total_services: domains.reduce((sum, d) => sum + d.services, 0),
      note: 'Pass domain to see its services and fields, or search to find a service by words.'
    }
  }
})
