import { z } from 'zod'
import { UserError } from '../../src/errors.ts'
import type { HomeView } from '../../src/home/view.ts'
import { defineTool } from '../../src/mcp/runtime/define-tool.ts'
import { entityIdArg } from '../_shared/args.ts'
import { isoSeconds, toMillis } from '../_shared/window.ts'
import type { ConfigKind } from '../../src/home/configs.ts'
import { hideEntities, requireItem } from './_config.ts'

export const MAX_STEPS = 60

type Raw = Record<string, unknown>
const text = (value: unknown, max: number): string | undefined => typeof value === 'string' && value ? value.slice(0, max) : undefined
const iso = (value: unknown): string | null => { const ms = toMillis(value); return ms === undefined ? null : isoSeconds(ms) }

/** One step without its variables: when, where, what it called on which (visible) targets, how it ended. */
function shapeStep (home: HomeView, path: string, step: Raw): Record<string, unknown> {
  const result = step.result !== null && typeof step.result === 'object' ? step.result as Raw : undefined
  const params = result?.params !== null && typeof result?.params === 'object' ? result.params as Raw : undefined
  const error = text(step.error, 300)
  return {
    path,
    t: iso(step.timestamp),
    ...(typeof params?.domain === 'string' && typeof params.service === 'string' ? { service: `${params.domain}.${params.service}` } : {}),
    ...(params?.target && typeof params.target === 'object' && Object.keys(params.target).length ? { target: hideEntities(home, params.target) } : {}),
    ...(typeof result?.result === 'boolean' ? { result: result.result } : {}),
    ...(typeof result?.delay === 'number' || typeof result?.delay === 'string' ? { delay: result.delay } : {}),
    ...(error ? { error } : {})
  }
}

export default defineTool({
  name: 'ha_get_automation_trace',
  title: 'Get automation or script traces',
  description: 'Recent runs, or one run\'s steps (variables left out).',
  kind: 'read',
  category: 'automations',
  everyday: true,
  keywords: {
    en: 'trace debug run why automation did not fire failed error steps last run script execution troubleshoot',
    de: 'ablaufverfolgung trace debuggen warum automatisierung nicht ausgelöst fehler schritte letzter lauf',
    fr: 'trace déboguer exécution pourquoi automatisation pas déclenchée erreur étapes dernière exécution',
    es: 'traza depurar ejecución por qué automatización no se disparó error pasos última ejecución',
    nl: 'trace debuggen uitvoering waarom automatisering niet afgegaan fout stappen laatste run'
  },
  input: z.object({
    entity_id: entityIdArg('automation.* or script.* id.'),
    run_id: z.string().trim().min(1).max(100).optional().describe('One run, from the runs list.')
  }),
  async handler ({ home, ha }, args) {
    const domain = requireItem(home, ['automation', 'script'], args.entity_id).domain as ConfigKind
    const itemId = home.configKey(domain, args.entity_id)
    if (itemId === undefined) {
      return { entity_id: args.entity_id, runs: [], note: 'This automation has no id, so Home Assistant keeps no traces for it. Give it an id in YAML to trace it.' }
    }
    if (args.run_id === undefined) {
      const list = await ha.command<Raw[]>({ type: 'trace/list', domain, item_id: itemId })
      const runs = (Array.isArray(list) ? list : [])
        .map(run => {
          const timestamp = (run.timestamp ?? {}) as Raw
          return {
            run_id: String(run.run_id),
            start: iso(timestamp.start),
            finish: iso(timestamp.finish),
            state: run.state ?? null,
            result: run.script_execution ?? null,
            ...(text(run.trigger, 200) ? { trigger: hideEntities(home, text(run.trigger, 200)) } : {}),
            last_step: run.last_step ?? null,
            ...(text(run.error, 300) ? { error: hideEntities(home, text(run.error, 300)) } : {})
          }
        })
        .sort((a, b) => (b.start ?? '').localeCompare(a.start ?? ''))
      return { entity_id: args.entity_id, runs, ...(runs.length === 0 ? { note: 'No stored runs yet (Home Assistant keeps the last few).' } : {}) }
    }
    let trace: Raw
    try {
      trace = await ha.command<Raw>({ type: 'trace/get', domain, item_id: itemId, run_id: args.run_id })
    } catch (err) {
      if ((err as { haCode?: string }).haCode === 'not_found') {
        throw new UserError('HAMCP_NOT_FOUND', `No run ${args.run_id} stored for ${args.entity_id}.`, 'Call ha_get_automation_trace without run_id to list the stored runs.')
      }
      throw err
    }
    const steps: Array<Record<string, unknown>> = []
    const byPath = trace.trace !== null && typeof trace.trace === 'object' ? trace.trace as Record<string, unknown> : {}
    for (const [path, entries] of Object.entries(byPath)) {
      if (!Array.isArray(entries)) continue
      for (const entry of entries) if (entry !== null && typeof entry === 'object') steps.push(shapeStep(home, path, entry as Raw))
    }
    steps.sort((a, b) => String(a.t).localeCompare(String(b.t)))
    const timestamp = (trace.timestamp ?? {}) as Raw
    return {
      entity_id: args.entity_id,
      run_id: args.run_id,
      start: iso(timestamp.start),
      finish: iso(timestamp.finish),
      state: trace.state ?? null,
      result: trace.script_execution ?? null,
      ...(text(trace.trigger, 200) ? { trigger: hideEntities(home, text(trace.trigger, 200)) } : {}),
      ...(text(trace.error, 300) ? { error: hideEntities(home, text(trace.error, 300)) } : {}),
      steps: steps.slice(0, MAX_STEPS),
      ...(steps.length > MAX_STEPS ? { note: `${steps.length} steps; the first ${MAX_STEPS} are shown.` } : {})
    }
  }
})
