import type { Clock } from '../../src/clock.ts'
import { z } from 'zod'
import type { HomeView } from '../../src/home/view.ts'
import { defineTool } from '../../src/mcp/runtime/define-tool.ts'
import { HOUR_MS } from '../_shared/read-calls.ts'
import { batches, PIECE_READ_BUDGET_MS, walkPieces } from '../../src/ha/pieces.ts'
import type { HomeAssistant } from '../../src/ha/index.ts'

const CHANGES_PER_ENTITY = 20
/** People per history request, and rows a piece should hold. */
const PEOPLE_PER_BATCH = 20
const PIECE_ROWS = 1000

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

function pointMs (p: Point): number {
  const seconds = p.lc ?? p.lu
  if (typeof seconds === 'number') return seconds * 1000
  return Date.parse(p.last_changed ?? p.last_updated ?? '')
}

/**
 * The last CHANGES_PER_ENTITY zone changes of each person, newest piece of the window first and no
 * further back than that, a batch of people at a time: a week of many trackers is never held at once.
 */
async function zoneChanges (ha: HomeAssistant, clock: Clock, people: string[], start: number, end: number): Promise<{ changes: Map<string, Point[]>, complete: boolean }> {
  const changes = new Map<string, Point[]>(people.map(id => [id, []]))
  const deadline = clock.now() + PIECE_READ_BUDGET_MS
  let complete = true
  const all = batches(people, PEOPLE_PER_BATCH)
  for (const [i, batch] of all.entries()) {
    let wanted = batch
    const walk = await walkPieces<{ id: string, p: Point }>('backward', start, end, row => pointMs(row.p),
      async (from, to) => {
        const history = await ha.command<Record<string, Point[]>>({
          type: 'history/history_during_period',
          start_time: new Date(from).toISOString(),
          end_time: new Date(to).toISOString(),
          entity_ids: wanted,
          minimal_response: true,
          no_attributes: true,
          include_start_time_state: false,
          significant_changes_only: false
        })
        return wanted.flatMap(id => (Array.isArray(history?.[id]) ? history[id] : []).map(p => ({ id, p })))
      },
      rows => {
        for (const id of wanted) {
          const own = rows.filter(row => row.id === id).map(row => row.p)
          const list = changes.get(id) as Point[]
          list.unshift(...own.slice(Math.max(0, own.length - (CHANGES_PER_ENTITY - list.length))))
        }
        wanted = wanted.filter(id => (changes.get(id) as Point[]).length < CHANGES_PER_ENTITY)
        return wanted.length === 0
      },
      { targetRows: PIECE_ROWS, firstMs: 24 * HOUR_MS, deadline, now: clock.now })
    if (walk.stoppedBy === 'deadline' || walk.stoppedBy === 'pieces') complete = false
    if (clock.now() >= deadline && i < all.length - 1) { complete = false; break }
  }
  return { changes, complete }
}

export default defineTool({
  name: 'ha_get_presence',
  title: 'Get presence',
  description: 'People and trackers by zone name (never coordinates), zone occupancy, recent zone changes.',
  kind: 'read',
  category: 'environment',
  everyday: true,
  keywords: {
    en: 'who is home presence away where is people person family location zone arrived left tracker phone',
    de: 'wer ist zuhause anwesenheit abwesend wo ist personen familie standort zone angekommen weg',
    fr: 'qui est à la maison présence absent où est personnes famille localisation zone arrivé parti',
    es: 'quién está en casa presencia ausente dónde está personas familia ubicación zona llegó salió',
    nl: 'wie is thuis aanwezigheid afwezig waar is personen familie locatie zone aangekomen vertrokken'
  },
  input: z.object({
    hours: z.number().int().min(1).max(168).default(24).describe('Hours of zone changes.')
  }),
  async handler ({ ha, home, clock }, { hours }) {
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

    const end = clock.now()
    const changes: Record<string, Array<{ t: string | undefined, zone: string }>> = {}
    let note: string | undefined
    const people = trackers.filter(row => row.domain === 'person').map(row => row.entity_id)
    if (people.length) {
      try {
        const read = await zoneChanges(ha, clock, people, end - hours * HOUR_MS, end)
        for (const id of people) changes[id] = (read.changes.get(id) ?? []).map(p => ({ t: new Date(pointMs(p)).toISOString(), zone: zoneName(home, p.s ?? p.state ?? 'unknown') }))
        if (!read.complete) note = 'Home Assistant was slow to answer: zone changes are shown for the most recent part of the window only; ask for fewer hours.'
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
