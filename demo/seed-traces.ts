import type { House } from './house.ts'
import { STORED_TRACES, type Trace } from './traces.ts'
import { isoTime, ulid } from './util.ts'

const seeded = new WeakSet<House>()

/** Past runs of the UI automations (the last ones stored, like HA's stored_traces), made once from the seed. */
export function seedTraces (house: House): void {
  if (seeded.has(house)) return
  seeded.add(house)
  for (const def of house.home.automations) {
    if (def.id === null) continue
    const key = `automation.${def.id}`
    const existing = house.traces.get(key) ?? []
    const past: Trace[] = []
    const actions = Array.isArray(def.config.actions) ? def.config.actions as Array<Record<string, unknown>> : []
    const trigger = Array.isArray(def.config.triggers) ? def.config.triggers[0] as Record<string, unknown> : {}
    const source = trigger.trigger === 'time' ? `time ${String(trigger.at)}` : trigger.trigger === 'state' ? `state of ${String(trigger.entity_id)}` : String(trigger.trigger ?? 'event')
    for (let k = 3; k >= 1; k--) {
      const start = house.home.startMs - k * 86_400_000 - 3_600_000
      const failed = k === 2 && def.id === '1700000000005'
      const steps: Trace['steps'] = { 'trigger/0': [{ path: 'trigger/0', timestamp: isoTime(start), changed_variables: { trigger: { id: '0', idx: '0', platform: trigger.trigger ?? null, description: source } } }] }
      actions.forEach((action, i) => {
        const step = { path: `action/${i}`, timestamp: isoTime(start + 10 + i) }
        steps[`action/${i}`] = [failed ? { ...step, error: 'Action notify.mobile_app_alice_phone not found' } : typeof action.action === 'string' ? { ...step, result: { params: { domain: action.action.split('.')[0], service: action.action.split('.')[1], service_data: action.data ?? {}, target: action.target ?? {} }, running_script: false } } : step]
      })
      past.push({
        run_id: ulid(start, () => (k * 0.13) % 1).toLowerCase(),
        domain: 'automation',
        item_id: def.id,
        state: 'stopped',
        script_execution: failed ? 'error' : 'finished',
        last_step: actions.length > 0 ? `action/${actions.length - 1}` : 'trigger/0',
        timestamp: { start: isoTime(start), finish: isoTime(start + 350) },
        trigger: source,
        ...(failed ? { error: 'Action notify.mobile_app_alice_phone not found' } : {}),
        context: { id: ulid(start, () => (k * 0.29) % 1), parent_id: null, user_id: null },
        config: def.config,
        steps
      })
    }
    house.traces.set(key, [...past, ...existing].slice(-STORED_TRACES))
  }
}
