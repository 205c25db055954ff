import { z } from 'zod'
import { defineTool } from '../../src/mcp/runtime/define-tool.ts'
import { page } from '../../src/shape.ts'
import { limitArg, offsetArg } from '../_shared/args.ts'

type Raw = Record<string, unknown>
const text = (value: unknown, max: number): string | null => typeof value === 'string' && value ? value.slice(0, max) : null

/** A blueprint input, as the caller needs it to fill one in. */
function shapeInput (name: string, input: Raw): Record<string, unknown> {
  const selector = input.selector !== null && typeof input.selector === 'object' ? Object.keys(input.selector)[0] : undefined
  const out: Record<string, unknown> = { name, required: !('default' in input) }
  if (typeof input.name === 'string' && input.name !== name) out.label = input.name.slice(0, 80)
  const description = text(input.description, 150)
  if (description) out.description = description
  if ('default' in input) out.default = input.default
  if (selector) out.selector = selector
  return out
}

/** Inputs may be grouped in sections (`input: {section: {input: {...}}}`); flatten them. */
function flattenInputs (inputs: Raw): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = []
  for (const [name, value] of Object.entries(inputs)) {
    if (value === null || typeof value !== 'object') { out.push({ name, required: true }); continue }
    const input = value as Raw
    if (input.input !== null && typeof input.input === 'object') out.push(...flattenInputs(input.input as Raw))
    else out.push(shapeInput(name, input))
  }
  return out
}

export default defineTool({
  name: 'ha_list_blueprints',
  title: 'List blueprints',
  description: 'Installed blueprints with their inputs (required, default, selector).',
  kind: 'read',
  category: 'automations',
  everyday: false,
  keywords: {
    en: 'blueprints available installed templates which blueprints',
    de: 'blaupausen vorlagen verfügbar installiert',
    fr: 'blueprints modèles disponibles installés',
    es: 'blueprints planos plantillas disponibles instalados',
    nl: 'blauwdrukken blueprints sjablonen beschikbaar'
  },
  input: z.object({
    domain: z.enum(['automation', 'script']).default('automation').describe('Domain.'),
    limit: limitArg(50, 20),
    offset: offsetArg()
  }),
  async handler ({ ha }, args) {
    const result = await ha.command<Record<string, unknown>>({ type: 'blueprint/list', domain: args.domain })
    const blueprints = Object.entries(result ?? {})
      .map(([path, entry]) => {
        const raw = entry !== null && typeof entry === 'object' ? entry as Raw : {}
        if (typeof raw.error === 'string') return { path, error: raw.error.slice(0, 300) }
        const metadata = raw.metadata !== null && typeof raw.metadata === 'object' ? raw.metadata as Raw : {}
        const inputs = metadata.input !== null && typeof metadata.input === 'object' ? flattenInputs(metadata.input as Raw) : []
        return {
          path,
          name: text(metadata.name, 120) ?? path,
          description: text(metadata.description, 300),
          ...(typeof metadata.source_url === 'string' ? { source_url: metadata.source_url } : {}),
          inputs
        }
      })
      .sort((a, b) => a.path.localeCompare(b.path))
    return page(blueprints, args.offset, args.limit, blueprints.length === 0 ? `No ${args.domain} blueprints installed.` : undefined)
  }
})
