import { HaError } from './errors.ts'
import { pointsBetween } from './history.ts'
import type { House } from './house.ts'
import { asArray, epochSeconds, parseTime, ulid } from './util.ts'

const DAY = 86_400_000

function excluded (house: House, entityId: string): boolean {
  const attrs = house.states.get(entityId)?.attributes ?? house.home.states.find(s => s.entity_id === entityId)?.attributes
  return attrs === undefined || attrs.unit_of_measurement !== undefined || attrs.state_class !== undefined
}

/** Past automation runs with their context chains, computed from the seed for any window. */
function generatedChains (house: House, from: number, to: number): Array<Record<string, unknown>> {
  const rows: Array<Record<string, unknown>> = []
  const automations = house.home.automations
  const wake = automations.find(a => a.entity_id === 'automation.wake_up')
  const welcome = automations.find(a => a.entity_id === 'automation.welcome_home')
  const wakeLight = (wake?.config.actions as Array<{ target?: { entity_id?: string } }> | undefined)?.[0]?.target?.entity_id
  const welcomeLight = (welcome?.config.actions as Array<{ target?: { entity_id?: string } }> | undefined)?.[0]?.target?.entity_id
  const firstDay = Math.floor(Math.max(from, house.home.startMs - 7 * DAY) / DAY)
  for (let day = firstDay; day * DAY <= Math.min(to, house.home.startMs); day++) {
    const wakeAt = day * DAY + 7 * 3_600_000
    if (wake !== undefined && wakeLight !== undefined && wakeAt >= from && wakeAt <= to && wakeAt < house.home.startMs) {
      const ctx = ulid(wakeAt, () => 0.37)
      rows.push({ when: epochSeconds(wakeAt), name: 'Wake up', message: 'triggered by time 07:00:00', source: 'time 07:00:00', entity_id: wake.entity_id, domain: 'automation', context_id: ctx })
      rows.push({ state: 'on', entity_id: wakeLight, when: epochSeconds(wakeAt + 212), context_id: ctx, context_event_type: 'automation_triggered', context_domain: 'automation', context_entity_id: wake.entity_id, context_name: 'Wake up', context_message: 'triggered by time 07:00:00', context_source: 'time 07:00:00' })
    }
    const homeAt = day * DAY + 17 * 3_600_000 + Math.floor(((day * 7919) % 60) * 60_000)
    if (welcome !== undefined && welcomeLight !== undefined && homeAt >= from && homeAt <= to && homeAt < house.home.startMs) {
      const personCtx = ulid(homeAt, () => 0.61)
      const autoCtx = ulid(homeAt + 900, () => 0.83)
      rows.push({ state: 'home', entity_id: 'person.alice', when: epochSeconds(homeAt), context_id: personCtx })
      rows.push({ when: epochSeconds(homeAt + 900), name: 'Welcome home', message: 'triggered by state of person.alice', source: 'state of person.alice', entity_id: welcome.entity_id, domain: 'automation', context_id: autoCtx })
      rows.push({ state: 'on', entity_id: welcomeLight, when: epochSeconds(homeAt + 1150), context_id: autoCtx, context_event_type: 'automation_triggered', context_domain: 'automation', context_entity_id: welcome.entity_id, context_name: 'Welcome home', context_message: 'triggered by state of person.alice', context_source: 'state of person.alice' })
    }
    const manualAt = day * DAY + 21 * 3_600_000 + 1_234_000
    if (welcomeLight !== undefined && manualAt >= from && manualAt <= to && manualAt < house.home.startMs) {
      rows.push({ state: 'off', entity_id: welcomeLight, when: epochSeconds(manualAt), context_id: ulid(manualAt, () => 0.12), context_user_id: house.userId, context_event_type: 'call_service', context_domain: 'light', context_service: 'turn_off' })
    }
  }
  return rows
}

/** logbook/get_events: state rows (no name), automation/script rows, context_* for what caused them. */
export function logbookEvents (house: House, msg: Record<string, unknown>): Array<Record<string, unknown>> {
  const from = parseTime(msg.start_time)
  if (from === undefined) throw new HaError('invalid_start_time', 'Invalid start_time')
  const to = msg.end_time === undefined ? Date.now() : parseTime(msg.end_time)
  if (to === undefined) throw new HaError('invalid_end_time', 'Invalid end_time')
  if (from > Date.now()) return []
  let wanted: Set<string> | undefined
  // Like HA (`if entity_ids:`), an empty list filters nothing: the whole home answers.
  if (asArray(msg.entity_ids).length > 0 || asArray(msg.device_ids).length > 0) {
    wanted = new Set(asArray(msg.entity_ids))
    const devices = new Set(asArray(msg.device_ids))
    for (const entry of house.entities.values()) if (entry.device_id !== null && devices.has(entry.device_id)) wanted.add(entry.entity_id)
  }
  const contextId = typeof msg.context_id === 'string' ? msg.context_id : undefined
  const rows: Array<Record<string, unknown>> = []
  const ids = wanted ?? new Set(house.entities.keys())
  const chainRows = generatedChains(house, from, to)
  const chainEntities = new Set(chainRows.map(r => String(r.entity_id)))
  for (const entityId of ids) {
    if (excluded(house, entityId)) continue
    for (const p of pointsBetween(house, entityId, from, to)) {
      if (p.lc !== p.t) continue // attribute-only updates are not logbook rows
      if (p.t < house.home.startMs && chainEntities.has(entityId) && entityId.startsWith('person.')) continue
      const row: Record<string, unknown> = { state: p.s, entity_id: entityId, when: epochSeconds(p.t) }
      if (p.ctx !== undefined) {
        row.context_id = p.ctx.id
        Object.assign(row, house.contextOrigins.get(p.ctx.id) ?? (p.ctx.user_id === null ? {} : { context_user_id: p.ctx.user_id }))
      }
      rows.push(row)
    }
  }
  for (const row of [...chainRows, ...house.logbook]) {
    const when = Number(row.when) * 1000
    if (when < from || when > to) continue
    if (wanted !== undefined && !wanted.has(String(row.entity_id)) && !wanted.has(String(row.context_entity_id))) continue
    rows.push(row)
  }
  const filtered = contextId === undefined ? rows : rows.filter(r => r.context_id === contextId)
  return filtered.sort((a, b) => Number(a.when) - Number(b.when))
}
