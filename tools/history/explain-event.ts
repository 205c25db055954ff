import type { Clock } from '../../src/clock.ts'
import { z } from 'zod'
import { UserError } from '../../src/errors.ts'
import type { HomeAssistant } from '../../src/ha/index.ts'
import type { HomeView } from '../../src/home/view.ts'
import { defineTool } from '../../src/mcp/runtime/define-tool.ts'
import { entityIdArg } from '../_shared/args.ts'
import { domainOf, ENTITY_ID_SOURCE, requireEntity } from '../../src/home/entities.ts'
import { fetchLogbook, peopleByUser, type LogbookRow } from '../_shared/logbook.ts'
import { isoSeconds, parseInstant, toMillis } from '../_shared/window.ts'

export const MAX_HOPS = 4
const BEFORE_MS = 5 * 60_000
const AFTER_MS = 60_000

type CauseKind = 'person' | 'automation' | 'script' | 'schedule' | 'state_change' | 'integration' | 'unknown'
interface Hop { kind: CauseKind, entity_id?: string, name?: string, detail?: string, at?: string }

const STATE_TRIGGER = new RegExp(`^(?:numeric )?state of (${ENTITY_ID_SOURCE})`)
const SCHEDULE_SOURCES = /^(time|sun|time pattern|time_pattern|calendar|sunrise|sunset)\b/i

function triggerText (row: LogbookRow): string | undefined {
  return row.source ?? row.context_source ?? row.message?.replace(/^triggered by /, '')
}

/** The row of `entityId` closest to `atMs` (the last one at or before it, else the first after). */
function closest (rows: LogbookRow[], entityId: string, atMs: number): LogbookRow | undefined {
  const own = rows.filter(row => row.entity_id === entityId)
  return own.filter(row => row.when <= atMs + 1000).pop() ?? own[0]
}

/** What started this context: the automation or script run that shares its id, if the logbook has it. */
async function runSharing (ha: HomeAssistant, now: number, contextId: string, skip: string, atMs: number): Promise<LogbookRow | undefined> {
  const rows = await fetchLogbook(ha, { start: new Date(atMs - BEFORE_MS), end: new Date(Math.min(now, atMs + AFTER_MS)), contextId })
  return rows.find(row => row.entity_id !== skip && (row.domain === 'automation' || row.domain === 'script' || /^(automation|script)\./.test(row.entity_id ?? '')))
}

/** One hop: turns the context of `row` into a cause, and returns the actor's own row to follow next. */
async function step (home: HomeView, ha: HomeAssistant, clock: Clock, row: LogbookRow, contextId: string | undefined): Promise<{ hop: Hop, next?: LogbookRow }> {
  let actorId = row.context_entity_id
  const ownTrigger = row.domain === 'automation' || row.domain === 'script' ? triggerText(row) : undefined
  // A state trigger names its entity in the source ("state of binary_sensor.hall_motion").
  if (!actorId && ownTrigger && !row.context_user_id) actorId = STATE_TRIGGER.exec(ownTrigger)?.[1]
  if (!actorId && contextId && row.entity_id) actorId = (await runSharing(ha, clock.now(), contextId, row.entity_id, row.when))?.entity_id
  if (actorId) {
    // Never name an entity the caller may not see.
    if (!home.visible(actorId)) return { hop: { kind: 'unknown', detail: 'caused by something filter_reads hides' } }
    const domain = domainOf(actorId)
    const name = home.entity(actorId)?.name ?? row.context_name ?? actorId
    const actorRows = await fetchLogbook(ha, { start: new Date(row.when - BEFORE_MS), end: new Date(Math.min(clock.now(), row.when + 1000)), entityIds: [actorId] })
    const next = closest(actorRows, actorId, row.when)
    const hop: Hop = { kind: 'state_change', entity_id: actorId, name }
    if (next) hop.at = isoSeconds(next.when)
    if (domain === 'automation' || domain === 'script') {
      hop.kind = domain
      const trigger = next ? triggerText(next) : row.context_source
      if (trigger) hop.detail = `triggered by ${home.scrub(trigger.slice(0, 200))}`
      return next ? { hop, next } : { hop }
    }
    const became = row.context_state ?? next?.state
    if (became) hop.detail = `became ${became}`
    // A plain state change with no context of its own (a sensor, a tracker) is the root cause.
    const traceable = next && (next.context_entity_id ?? next.context_user_id ?? next.context_service)
    return next && traceable ? { hop, next } : { hop }
  }
  if (row.context_user_id) {
    const person = peopleByUser(home).get(row.context_user_id)
    return { hop: { kind: 'person', ...(person ? { entity_id: person.entity_id, name: person.name } : { name: 'a Home Assistant user' }) } }
  }
  if (ownTrigger && SCHEDULE_SOURCES.test(ownTrigger)) return { hop: { kind: 'schedule', detail: home.scrub(ownTrigger.slice(0, 200)) } }
  if (row.context_domain && row.context_service) return { hop: { kind: 'integration', detail: `service ${row.context_domain}.${row.context_service} called without a user` } }
  if (ownTrigger) return { hop: { kind: 'unknown', detail: `triggered by ${home.scrub(ownTrigger.slice(0, 200))}` } }
  return { hop: { kind: 'integration', detail: 'reported by its integration or device, not by a person or automation' } }
}

function summary (entityName: string, state: string | undefined, chain: Hop[]): string {
  const what = `${entityName}${state ? ` changed to ${state}` : ' changed'}`
  if (chain.length === 0) return `${what}; the cause could not be found.`
  return `${what} because of ${chain.map(hop => hop.name ? `${hop.kind} "${hop.name}"${hop.detail ? ` (${hop.detail})` : ''}` : `${hop.kind}${hop.detail ? ` (${hop.detail})` : ''}`).join(', started by ')}.`
}

export default defineTool({
  name: 'ha_explain_event',
  title: 'Explain a state change',
  description: 'Who or what caused a state change: person, automation, script, schedule, entity or integration.',
  kind: 'read',
  category: 'history',
  everyday: true,
  keywords: {
    en: 'why did who turned caused cause reason explain what happened triggered by went on off opened by itself at night 3am',
    de: 'warum wer hat ursache grund erklären was ist passiert ausgelöst von eingeschaltet ging an von selbst nachts angegangen angeschaltet ausgegangen aufgegangen',
    fr: 'pourquoi qui a cause raison expliquer que s est il passé déclenché par allumé tout seul la nuit allumée éteinte ouverte',
    es: 'por qué quién causa razón explicar qué pasó disparado por encendió solo sola de noche encendida apagada abierta',
    nl: 'waarom wie oorzaak reden uitleggen wat gebeurde veroorzaakt door ging aan vanzelf snachts aangegaan uitgegaan opengegaan'
  },
  input: z.object({
    entity_id: entityIdArg(),
    at: z.string().trim().max(40).optional().describe('ISO time of the change (default the last one).')
  }),
  async handler ({ home, ha, clock }, args) {
    const entity = requireEntity(home, args.entity_id)
    const live = home.state(entity.entity_id)
    let atMs = args.at === undefined ? toMillis(live?.last_changed) : parseInstant(args.at, 'at').getTime()
    if (atMs === undefined) throw new UserError('HAMCP_INVALID_ARGUMENT', `${entity.entity_id} has no recorded change.`, 'Pass at with the time of the change.')
    if (atMs > clock.now() + 1000) throw new UserError('HAMCP_INVALID_ARGUMENT', 'at is in the future.', 'Give the time of a change that already happened.')
    const rows = await fetchLogbook(ha, { start: new Date(atMs - BEFORE_MS), end: new Date(Math.min(clock.now(), atMs + AFTER_MS)), entityIds: [entity.entity_id] })
    const change = closest(rows.filter(row => row.state !== undefined), entity.entity_id, atMs)
    const isLastChange = args.at === undefined || (live !== undefined && Math.abs((toMillis(live.last_changed) ?? 0) - atMs) < 1000)
    let current: LogbookRow | undefined = change ?? (isLastChange && live ? { when: atMs, entity_id: entity.entity_id, state: live.state, ...(live.context?.user_id ? { context_user_id: live.context.user_id } : {}) } : undefined)
    if (!current) {
      return { entity_id: entity.entity_id, name: entity.name, cause_kind: 'unknown', chain: [], note: 'No change of this entity in the logbook around that time (numeric sensors are not logged; try ha_get_history).' }
    }
    atMs = current.when
    const changedTo = current.state
    // The live state carries the context id of its last change, which the causing run shares.
    let contextId = isLastChange ? live?.context?.id : current.context_id
    const chain: Hop[] = []
    const seen = new Set<string>()
    while (current && chain.length < MAX_HOPS) {
      const { hop, next } = await step(home, ha, clock, current, contextId)
      chain.push(hop)
      if (!next || (hop.entity_id && seen.has(hop.entity_id))) break
      if (hop.entity_id) seen.add(hop.entity_id)
      current = next
      contextId = next.context_id
    }
    const root = [...chain].reverse().find(hop => hop.kind !== 'unknown')
    return {
      entity_id: entity.entity_id,
      name: entity.name,
      changed_to: changedTo,
      at: isoSeconds(atMs),
      cause_kind: root?.kind ?? 'unknown',
      caused_by: chain[0],
      summary: summary(entity.name, changedTo, chain),
      chain,
      ...(chain.length === MAX_HOPS ? { note: `Stopped after ${MAX_HOPS} hops.` } : {})
    }
  }
})
