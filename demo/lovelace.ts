import type { House } from './house.ts'

export interface Dashboard {
  id: string
  url_path: string | null
  mode: 'storage' | 'yaml'
  title: string
  icon: string | null
  require_admin: boolean
  show_in_sidebar: boolean
  config: Record<string, unknown> | null
}

const stores = new WeakMap<House, Map<string | null, Dashboard>>()

function entityCards (house: House, domain: string, limit: number): string[] {
  const out: string[] = []
  for (const id of house.states.keys()) {
    if (id.startsWith(`${domain}.`)) out.push(id)
    if (out.length >= limit) break
  }
  return out
}

/** Dashboards: the default one and "energie" in storage mode, "wall-panel" in YAML mode, one storage dashboard never saved. */
export function dashboards (house: House): Map<string | null, Dashboard> {
  let store = stores.get(house)
  if (store !== undefined) return store
  store = new Map()
  const lights = entityCards(house, 'light', 6)
  store.set(null, {
    id: 'lovelace',
    url_path: null,
    mode: 'storage',
    title: 'Overview',
    icon: null,
    require_admin: false,
    show_in_sidebar: true,
    config: {
      title: 'Demo Home',
      views: [
        { title: 'Home', path: 'home', cards: [{ type: 'entities', title: 'Lights', entities: lights }, { type: 'weather-forecast', entity: 'weather.home', forecast_type: 'daily' }, { type: 'thermostat', entity: entityCards(house, 'climate', 1)[0] ?? 'climate.none' }] },
        { title: 'Security', path: 'security', icon: 'mdi:shield-home', cards: [{ type: 'alarm-panel', entity: 'alarm_control_panel.home_alarm' }, { type: 'entities', entities: entityCards(house, 'lock', 3) }] }
      ]
    }
  })
  store.set('dashboard-energie', { id: 'dashboard_energie', url_path: 'dashboard-energie', mode: 'storage', title: 'Énergie', icon: 'mdi:lightning-bolt', require_admin: false, show_in_sidebar: true, config: { views: [{ title: 'Energy', cards: [{ type: 'energy-distribution' }, { type: 'statistics-graph', entities: ['sensor.grid_consumption', 'sensor.solar_production'], period: 'day', stat_types: ['change'] }] }] } })
  store.set('wall-panel', { id: 'wall_panel', url_path: 'wall-panel', mode: 'yaml', title: 'Wall panel', icon: 'mdi:tablet', require_admin: true, show_in_sidebar: false, config: { title: 'Wall panel', views: [{ title: 'Hall', cards: [{ type: 'glance', entities: lights.slice(0, 3) }] }] } })
  store.set('dashboard-nouveau', { id: 'dashboard_nouveau', url_path: 'dashboard-nouveau', mode: 'storage', title: 'Nouveau', icon: null, require_admin: false, show_in_sidebar: true, config: null })
  stores.set(house, store)
  return store
}

export function dashboardListView (d: Dashboard): Record<string, unknown> {
  const out: Record<string, unknown> = { id: d.id, url_path: d.url_path, mode: d.mode, title: d.title, icon: d.icon, require_admin: d.require_admin, show_in_sidebar: d.show_in_sidebar }
  if (d.mode === 'yaml') out.filename = `dashboards/${String(d.url_path)}.yaml`
  return out
}
