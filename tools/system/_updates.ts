import type { HomeAssistant } from '../../src/ha/index.ts'
import type { HomeView } from '../../src/home/view.ts'

/** homeassistant/components/update/const.py UpdateEntityFeature, by the names the answers use. */
export const UPDATE_FEATURES = { install: 1, specific_version: 2, progress: 4, backup: 8, release_notes: 16 } as const
export type UpdateFeature = keyof typeof UPDATE_FEATURES

export function supports (attributes: Record<string, unknown>, feature: UpdateFeature): boolean {
  return ((Number(attributes.supported_features) || 0) & UPDATE_FEATURES[feature]) !== 0
}

/** An install this server started: Home Assistant answers `update.install` only once it ended. */
export interface InstallRun { version: string | null, status: 'in_progress' | 'done' | 'failed', error?: string }

/** Per connection, so two apps in one process (tests) never see each other's installs. */
const installs = new WeakMap<HomeAssistant, Map<string, InstallRun>>()

export function installsOf (ha: HomeAssistant): Map<string, InstallRun> {
  let map = installs.get(ha)
  if (map === undefined) installs.set(ha, (map = new Map()))
  return map
}

const SUMMARY_MAX = 300

/** One update entity as ha_list_updates and ha_manage_update show it, with the install this server started, if any. */
export function updateView (home: HomeView, ha: HomeAssistant, entityId: string): Record<string, unknown> | undefined {
  const state = home.state(entityId)
  if (state === undefined) return undefined
  const a = state.attributes
  const summary = typeof a.release_summary === 'string' ? a.release_summary : null
  const run = installsOf(ha).get(entityId)
  const percentage = typeof a.update_percentage === 'number' ? a.update_percentage : null
  return {
    entity_id: entityId,
    title: a.title ?? a.friendly_name ?? null,
    installed: a.installed_version ?? null,
    latest: a.latest_version ?? null,
    update_available: state.state === 'on',
    ...(a.skipped_version ? { skipped: a.skipped_version } : {}),
    in_progress: a.in_progress === true || typeof a.in_progress === 'number',
    ...(percentage === null ? {} : { percentage }),
    ...(summary ? { release_summary: summary.length > SUMMARY_MAX ? `${summary.slice(0, SUMMARY_MAX)}…` : summary } : {}),
    ...(typeof a.release_url === 'string' ? { release_url: a.release_url } : {}),
    supports: (Object.keys(UPDATE_FEATURES) as UpdateFeature[]).filter(feature => supports(a, feature)),
    ...(a.auto_update === true ? { auto_update: true } : {}),
    ...(run ? { last_install: run } : {})
  }
}
