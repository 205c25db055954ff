import { invalidFormat } from '../errors.ts'
import { addRuntimeEntity } from '../runtime-entities.ts'
import { asArray } from '../util.ts'
import { field, svc, type ServiceCall, type ServiceTable } from './registry.ts'

const SLUG = /^[a-z0-9_]+$/

const idsOf = (value: unknown): string[] => asArray(value).map(id => String(id).trim().toLowerCase())

/**
 * group.set and group.remove as homeassistant/components/group/__init__.py registers them: `entities`
 * replaces the members, `add_entities` / `remove_entities` change them (exclusive with `entities`), a
 * new object_id makes the group; the state follows the first member (enough for the demo).
 */
function setGroup (call: ServiceCall): void {
  const { house, data } = call
  const objectId = String(data.object_id ?? '')
  if (!SLUG.test(objectId)) throw invalidFormat(`invalid slug ${objectId} for dictionary value @ data['object_id']`)
  if (data.entities !== undefined && (data.add_entities !== undefined || data.remove_entities !== undefined)) {
    throw invalidFormat("two or more values in the same group of exclusion 'entities' @ data[<entities>]")
  }
  const entityId = `group.${objectId}`
  const current = house.states.get(entityId)
  let members = Array.isArray(current?.attributes.entity_id) ? current.attributes.entity_id.map(String) : []
  if (data.entities !== undefined) members = idsOf(data.entities)
  members = [...new Set([...members, ...idsOf(data.add_entities)])]
  const removed = new Set(idsOf(data.remove_entities))
  members = members.filter(id => !removed.has(id))
  const state = house.states.get(members[0] ?? '')?.state ?? 'unknown'
  const name = typeof data.name === 'string' ? data.name : undefined
  if (current === undefined) {
    addRuntimeEntity(house, entityId, entityId, name ?? objectId, state, { entity_id: members, order: 0, auto: false })
    return
  }
  house.updateState(entityId, { state, attributes: { entity_id: members, ...(name === undefined ? {} : { friendly_name: name }) } }, call.context)
}

export function groupServices (): ServiceTable {
  return {
    group: {
      set: svc('Set', 'Creates/Updates a group.', {
        object_id: field('Object ID', { text: {} }, { required: true }),
        name: field('Name', { text: {} }),
        entities: field('Entities', { entity: { multiple: true } }),
        add_entities: field('Add entities', { entity: { multiple: true } }),
        remove_entities: field('Remove entities', { entity: { multiple: true } })
      }, { run: setGroup }),
      remove: svc('Remove', 'Removes a group.', { object_id: field('Object ID', { text: {} }, { required: true }) }, {
        run: call => { call.house.removeState(`group.${String(call.data.object_id ?? '')}`, call.context) }
      }),
      reload: svc('Reload', 'Reloads group configuration.', {})
    }
  }
}
