import type { HomeAssistant } from '../../src/ha/index.ts'
import type { HomeView } from '../../src/home/view.ts'
import { requireDomain, requireEntity, type EntityRow } from '../../src/home/entities.ts'

/**
 * Services that only answer questions (forecasts, to-do items): called directly with return_response,
 * never through the write guard. Only these are allowed here, so a read tool cannot change the home.
 */
const READ_ONLY_SERVICES = new Set(['weather.get_forecasts', 'todo.get_items', 'calendar.get_events'])

/** Calls a read-only, response-only service on one entity and returns that entity's part of the response. */
export async function readServiceResponse (ha: HomeAssistant, domain: string, service: string, entityId: string, data: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  if (!READ_ONLY_SERVICES.has(`${domain}.${service}`)) throw new Error(`${domain}.${service} is not a known read-only service`)
  const result = await ha.command<{ response?: Record<string, unknown> }>({
    type: 'call_service', domain, service, service_data: data, target: { entity_id: entityId }, return_response: true
  })
  const part = result?.response?.[entityId]
  return part !== null && typeof part === 'object' ? part as Record<string, unknown> : {}
}

/** A visible entity of one domain, or a clear error that lists where to look. */
export function requireDomainEntity (home: HomeView, entityId: string, domain: string, listHint: string): EntityRow {
  requireDomain(entityId, [domain], `a ${domain} entity`, listHint)
  return requireEntity(home, entityId)
}

/** Visible entities of a domain, as small {entity_id, name, state} rows. */
export function domainRows (home: HomeView, domain: string): Array<{ entity_id: string, name: string, state: string }> {
  return home.entities().filter(row => row.domain === domain).map(row => ({ entity_id: row.entity_id, name: row.name, state: row.state }))
}

export const HOUR_MS = 3_600_000
