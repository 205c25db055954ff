import type { ConfigKind } from '../../src/home/configs.ts'
import type { HomeView } from '../../src/home/view.ts'
import { requireDomain, requireEntity, type EntityRow } from '../../src/home/entities.ts'

export { hideEntities } from '../_shared/hide.ts'

/** The visible row of an automation or script, refusing ids of the other domain. */
export function requireItem (home: HomeView, domain: ConfigKind | ConfigKind[], entityId: string): EntityRow {
  const domains = Array.isArray(domain) ? domain : [domain]
  requireDomain(entityId, domains, domains.map(d => `a ${d}`).join(' or '), `Pass an id like ${domains[0]}.my_${domains[0]}; list them with ha_list_${domains[0]}s.`)
  return requireEntity(home, entityId)
}

/** ISO time or null, as automations and scripts expose last_triggered. */
export function lastTriggered (home: HomeView, entityId: string): string | null {
  const value = home.state(entityId)?.attributes.last_triggered
  return typeof value === 'string' ? value : null
}
