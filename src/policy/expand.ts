import { ENTITY_ID } from '../home/entities.ts'

/**
 * The entities an entity stands for, as Home Assistant acts on them: an old-style group (`group.*`) and
 * an integration group (a light, switch, cover... group) list their members in the `entity_id`
 * attribute and are expanded, recursively (homeassistant/helpers/group.py expand_entity_ids,
 * get_entity_ids); a scene lists in the same attribute the entities it sets (homeassistant/components/
 * homeassistant/scene.py, HomeAssistantScene.extra_state_attributes). Any state carrying that list is
 * read the same way, so what a call can reach through it is never missed.
 */

/** At most this many members are followed: a larger web is refused rather than half read. */
export const MAX_MEMBERS = 2000

export interface Members {
  /** Each member not named by the call, with the named entity it was reached through. */
  via: Map<string, string>
  /** More than MAX_MEMBERS: what they reach is not all known. */
  truncated: boolean
}

type StateOf = (entityId: string) => { attributes: Record<string, unknown> } | undefined

/** The members reached through `named`, breadth first, each once (a group holding itself, or a cycle, ends). */
export function expandMembers (stateOf: StateOf, named: Iterable<string>): Members {
  const seen = new Set(named)
  const via = new Map<string, string>()
  const queue: Array<[string, string]> = [...seen].map(id => [id, id])
  for (let i = 0; i < queue.length; i++) {
    const [id, root] = queue[i] as [string, string]
    const members = stateOf(id)?.attributes.entity_id
    if (!Array.isArray(members)) continue
    for (const raw of members) {
      if (typeof raw !== 'string') continue
      const member = raw.trim().toLowerCase()
      if (!ENTITY_ID.test(member) || seen.has(member)) continue
      if (via.size >= MAX_MEMBERS) return { via, truncated: true }
      seen.add(member)
      via.set(member, root)
      queue.push([member, root])
    }
  }
  return { via, truncated: false }
}
