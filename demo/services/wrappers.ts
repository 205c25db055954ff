import { entriesOf } from '../config-entries.ts'
import { switchAsXState } from '../helper-platforms.ts'
import type { House } from '../house.ts'
import type { HassContext } from '../types.ts'
import { isRecord } from '../util.ts'

/**
 * UI-made helpers that act on other entities when a service reaches them:
 * - switch_as_x: the wrapper calls switch.turn_on/turn_off on the switch it wraps, swapped when inverted
 *   (core switch_as_x/entity.py BaseToggleEntity; cover.py, valve.py, lock.py map open/unlock to on);
 * - a template entity runs the actions its options hold under the service's name (core
 *   template/switch.py async_turn_on runs turn_on; button.py press, number.py set_value...); a switch
 *   without a value template is optimistic and takes the new state.
 * Answers whether the entity was such a helper (the service's own behaviour is then skipped).
 */
export async function runWrapper (house: House, entityId: string, service: string, context: HassContext): Promise<boolean> {
  const registered = house.entities.get(entityId)
  const entryId = registered?.config_entry_id
  const entry = typeof entryId === 'string' ? entriesOf(house).entries.get(entryId) : undefined
  if (entry === undefined || registered === undefined) return false
  const o = entry.options
  if (registered.platform === 'switch_as_x' && entry.domain === 'switch_as_x') {
    const on = ['turn_on', 'open_cover', 'open_valve', 'unlock'].includes(service)
    const off = ['turn_off', 'close_cover', 'close_valve', 'lock'].includes(service)
    if (!on && !off && service !== 'toggle') return false
    const wrapped = String(o.entity_id)
    const inverted = o.invert === true
    const forward = service === 'toggle' ? 'toggle' : on !== inverted ? 'turn_on' : 'turn_off'
    await house.invoke({ domain: 'switch', service: forward, target: { entity_id: wrapped }, via: 'ws', context, internal: true })
    house.updateState(entityId, { state: switchAsXState(house, o).state }, context)
    return true
  }
  if (registered.platform === 'template' && entry.domain === 'template') {
    const actions = o[service]
    if (actions === undefined) return false
    for (const action of Array.isArray(actions) ? actions : [actions]) {
      if (!isRecord(action) || typeof action.action !== 'string') continue
      const [domain = '', name = ''] = action.action.split('.')
      await house.invoke({ domain, service: name, serviceData: isRecord(action.data) ? action.data : {}, target: isRecord(action.target) ? action.target : {}, via: 'ws', context, internal: true })
    }
    if (o.template_type === 'switch' && o.value_template === undefined && (service === 'turn_on' || service === 'turn_off')) house.updateState(entityId, { state: service === 'turn_on' ? 'on' : 'off' }, context)
    return true
  }
  return false
}
