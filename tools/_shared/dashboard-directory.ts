import { UserError } from '../../src/errors.ts'
import type { HomeAssistant } from '../../src/ha/index.ts'
import { isRecord } from '../../src/shape.ts'

/**
 * Which dashboards a home has, and the `url_path` each is addressed by. Home Assistant has two eras:
 * - since 2026.2 (core lovelace/__init__.py `_async_migrate_default_config`) a saved Overview is moved
 *   into a dashboard entry `url_path: "lovelace"`, listed by `lovelace/dashboards/list`, and the system
 *   `default_panel` is set to it; a new install has no Overview at all and opens the built-in `home`
 *   dashboard (frontend src/data/panel.ts `DEFAULT_PANEL`, `hasLegacyOverviewPanel`);
 * - before, the Overview is the unnamed default (`url_path: null`) and is never listed.
 * The built-in dashboards (home, light, security, climate, energy, maintenance: frontend
 * ha-config-lovelace-dashboards.ts `PANEL_DASHBOARDS`) are panels generated from the home; they have no
 * stored config and cannot be edited over the API.
 */

export const OVERVIEW = 'lovelace'
export const BUILT_IN_DASHBOARDS = ['home', 'light', 'security', 'climate', 'energy', 'maintenance'] as const
/** get_panels gives built-in panels a translation key as title ("home"); the frontend shows these names. */
const BUILT_IN_TITLES: Record<string, string> = { home: 'Home', light: 'Lights', security: 'Security', climate: 'Climate', energy: 'Energy', maintenance: 'Maintenance' }

export interface DashboardEntry {
  url_path: string
  title: string
  /** storage: editable; yaml: read from a file; generated: a built-in dashboard Home Assistant draws itself */
  mode: 'storage' | 'yaml' | 'generated'
  /** one of Home Assistant's own dashboards (frontend type "built_in"); absent for the owner's */
  built_in?: true
  default: boolean
  require_admin?: true
  in_sidebar?: false
  /** What `lovelace/config` is sent: null only for the Overview of a home that never migrated it. */
  address: string | null
}

export interface DashboardDirectory {
  entries: DashboardEntry[]
  /** The system-wide default dashboard, as the frontend picks it when a person has chosen none. */
  defaultPanel: string
  /** Whether the owner (or the 2026.2 migration) set default_panel; false: Home Assistant's own default. */
  defaultPanelSet: boolean
}

type Panels = Record<string, { title?: unknown, config?: unknown, require_admin?: unknown, show_in_sidebar?: unknown } | undefined>

/** The `default_panel` of the frontend's system data (core frontend storage, 2025.12+); null when unset or on older cores. */
async function systemDefaultPanel (ha: HomeAssistant): Promise<string | null> {
  try {
    const data = await ha.command<{ value?: unknown }>({ type: 'frontend/get_system_data', key: 'core' })
    const value = isRecord(data) && isRecord(data.value) ? data.value.default_panel : undefined
    return typeof value === 'string' && value !== '' ? value : null
  } catch (err) {
    if ((err as { haCode?: string }).haCode === 'unknown_command') return null
    throw err
  }
}

export async function dashboardDirectory (ha: HomeAssistant): Promise<DashboardDirectory> {
  const [listed, panels, chosen] = await Promise.all([
    ha.command<unknown>({ type: 'lovelace/dashboards/list' }),
    ha.command<Panels>({ type: 'get_panels' }),
    systemDefaultPanel(ha)
  ])
  const rows = (Array.isArray(listed) ? listed : []).filter(isRecord).filter(d => typeof d.url_path === 'string')
  // frontend panel.ts hasLegacyOverviewPanel: the lovelace panel has a config only while an Overview exists.
  const overviewPanel = panels[OVERVIEW]?.config
  const hasOverview = rows.some(d => d.url_path === OVERVIEW) || isRecord(overviewPanel)
  let defaultPanel = chosen ?? (panels.home !== undefined ? 'home' : OVERVIEW)
  if (defaultPanel === OVERVIEW && !hasOverview && panels.home !== undefined) defaultPanel = 'home'

  const flags = (d: { require_admin?: unknown, show_in_sidebar?: unknown }): Pick<DashboardEntry, 'require_admin' | 'in_sidebar'> => ({
    ...(d.require_admin === true ? { require_admin: true } : {}),
    ...(d.show_in_sidebar === false ? { in_sidebar: false } : {})
  })
  const entries: DashboardEntry[] = []
  for (const name of BUILT_IN_DASHBOARDS) {
    const panel = panels[name]
    if (panel === undefined) continue
    entries.push({ url_path: name, title: typeof panel.title === 'string' && panel.title !== '' && panel.title !== name ? panel.title : BUILT_IN_TITLES[name] ?? name, mode: 'generated', built_in: true, default: defaultPanel === name, ...flags(panel), address: name })
  }
  if (!rows.some(d => d.url_path === OVERVIEW) && isRecord(overviewPanel)) {
    entries.push({ url_path: OVERVIEW, title: 'Overview', mode: overviewPanel.mode === 'yaml' ? 'yaml' : 'storage', default: defaultPanel === OVERVIEW, address: null })
  }
  for (const d of rows) {
    const urlPath = d.url_path as string
    entries.push({ url_path: urlPath, title: typeof d.title === 'string' ? d.title : urlPath, mode: d.mode === 'yaml' ? 'yaml' : 'storage', default: defaultPanel === urlPath, ...flags(d), address: urlPath })
  }
  return { entries, defaultPanel, defaultPanelSet: chosen !== null }
}

export function unknownDashboard (directory: DashboardDirectory, name: string): UserError {
  const known = directory.entries.map(d => d.url_path).slice(0, 20).join(', ')
  if (name === OVERVIEW) {
    return new UserError('HAMCP_NOT_FOUND', 'This home has no Overview dashboard: since Home Assistant 2026.2 a new home opens the built-in "home" dashboard, which is generated and has no cards to edit.', `Dashboards: ${known}. Create a dashboard in Home Assistant (Settings > Dashboards) and edit that one.`)
  }
  return new UserError('HAMCP_NOT_FOUND', `No dashboard "${name}".`, `Dashboards: ${known} (ha_list_dashboards shows their views).`)
}

/** The `url_path` to send for an editable (storage-mode, stored) dashboard; a clear refusal for any other. */
export async function editableDashboard (ha: HomeAssistant, name: string): Promise<string | null> {
  const directory = await dashboardDirectory(ha)
  const entry = directory.entries.find(d => d.url_path === name)
  if (entry === undefined) throw unknownDashboard(directory, name)
  if (entry.mode === 'generated') {
    throw new UserError('HAMCP_NOT_SUPPORTED', `Dashboard "${name}" is built into Home Assistant: it is generated from the home and has no cards to edit.`, 'Pick a storage dashboard from ha_list_dashboards, or create one in Home Assistant (Settings > Dashboards).')
  }
  if (entry.mode === 'yaml') {
    throw new UserError('HAMCP_NOT_SUPPORTED', `Dashboard "${name}" is in YAML mode: Home Assistant reads it from a file and cannot save changes to it.`, 'Edit its YAML file by hand, or pick a storage-mode dashboard.')
  }
  return entry.address
}
