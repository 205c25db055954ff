import { z } from 'zod'
import type { HomeView } from '../../src/home/view.ts'
import { defineTool } from '../../src/mcp/define-tool.ts'
import { HOUR_MS } from '../_shared/read-calls.ts'

const CHANGES_PER_ENTITY = 20

interface Point { s?: string, state?: string, lu?: number, lc?: number, last_changed?: string, last_updated?: string }

/**
 * A presence state as a zone name: "home" becomes the home zone's name, "not_home" becomes "away".
 * Coordinates, GPS accuracy and tracker sources are never read, so they cannot leak.
 */
function zoneName (home: HomeView, state: string): string {
  if (state === 'home') return home.entity('zone.home')?.name ?? 'Home'
  if (state === 'not_home') return 'away'
  return state
}

function pointTime (p: Point): string | undefined {
  const seconds = p.lc ?? p.lu
  if (typeof seconds === 'number') return new Date(seconds * 1000).toISOString()
  return p.last_changed ?? p.last_updated
}

export default defineTool({
  name: 'ha_get_presence',
  title: 'Get presence',
  description: 'People and trackers by zone name (never coordinates), zone occupancy, recent zone changes.',
  kind: 'read',
  input: z.object({
    hours: z.number().int().min(1).max(168).default(24).describe('Hours of zone changes.')
  }),
  async handler ({ ha, home }, { hours }) {
    const rows = home.entities()
    const trackers = rows.filter(row => row.domain === 'person' || row.domain === 'device_tracker')
    const current = (id: string): Record<string, unknown> => {
      const row = home.entity(id)
      return { entity_id: id, name: row?.name, zone: zoneName(home, row?.state ?? 'unknown'), since: home.state(id)?.last_changed }
    }
    const zones = rows.filter(row => row.domain === 'zone').map(row => {
      const persons = home.state(row.entity_id)?.attributes.persons
      const visible = Array.isArray(persons) ? persons.filter(p => typeof p === 'string' && home.visible(p)) : []
      return { entity_id: row.entity_id, name: row.name, occupants: visible.length }
    })

    const end = Date.now()
    const changes: Record<string, Array<{ t: string | undefined, zone: string }>> = {}
    let note: string | undefined
    const people = trackers.filter(row => row.domain === 'person').map(row => row.entity_id)
    if (people.length) {
      try {
        const history = await ha.command<Record<string, Point[]>>({
          type: 'history/history_during_period',
          start_time: new Date(end - hours * HOUR_MS).toISOString(),
          end_time: new Date(end).toISOString(),
          entity_ids: people,
          minimal_response: true,
          no_attributes: true,
          significant_changes_only: false
        })
        for (const id of people) {
          const points = (history?.[id] ?? []).map(p => ({ t: pointTime(p), zone: zoneName(home, p.s ?? p.state ?? 'unknown') }))
          changes[id] = points.slice(-CHANGES_PER_ENTITY)
        }
      } catch (err) {
        note = `Zone history unavailable: ${(err as Error).message}`
      }
    }
    return {
      people: trackers.filter(row => row.domain === 'person').map(row => current(row.entity_id)),
      device_trackers: trackers.filter(row => row.domain === 'device_tracker').slice(0, 50).map(row => current(row.entity_id)),
      zones,
      changes,
      hours,
      note
    }
  }
})
