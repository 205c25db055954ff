import { HaError } from '../errors.ts'
import { installedAddonUpdate } from './hassio.ts'
import type { House } from '../house.ts'
import type { HassState } from '../types.ts'
import { field, svc, type ServiceCall, type ServiceTable } from './registry.ts'

/** homeassistant/components/update/const.py UpdateEntityFeature. */
export const UPDATE_FEATURES = { install: 1, specificVersion: 2, progress: 4, backup: 8, releaseNotes: 16 } as const

/** Installs the demo keeps running until a test ends them (`DemoHome.finishUpdate`), per house. */
const running = new WeakMap<House, Map<string, (error?: string) => void>>()

function runningIn (house: House): Map<string, (error?: string) => void> {
  let map = running.get(house)
  if (map === undefined) running.set(house, (map = new Map()))
  return map
}

/** Ends an install that reports progress: done (the latest version installed) or failed with `error`. */
export function finishUpdate (house: House, entityId: string, error?: string): boolean {
  const finish = runningIn(house).get(entityId)
  if (finish === undefined) return false
  finish(error)
  return true
}

/**
 * update/__init__.py UpdateEntity.state: on while the latest version is newer than the installed one
 * and not the one the owner skipped.
 */
function stateOf (attributes: Record<string, unknown>): string {
  const { installed_version: installed, latest_version: latest, skipped_version: skipped } = attributes
  return latest !== null && latest !== undefined && latest !== installed && latest !== skipped ? 'on' : 'off'
}

function has (state: HassState, feature: number): boolean {
  return ((Number(state.attributes.supported_features) || 0) & feature) !== 0
}

/**
 * update/__init__.py async_install: refused without an update (or a version) to install, a version
 * asked of an entity without SPECIFIC_VERSION, a backup asked of one without BACKUP, or an install
 * already in progress. async_install_with_progress then marks the entity in progress while it runs;
 * an entity with PROGRESS reports update_percentage. The service call returns once the install ended.
 */
async function install (call: ServiceCall, entityId: string, state: HassState): Promise<void> {
  const version = call.data.version
  const backup = call.data.backup === true
  const { installed_version: installed, latest_version: latest } = state.attributes
  if (version === undefined && (installed === latest || latest === null)) throw new HaError('home_assistant_error', `No update available for ${entityId}`)
  if (version !== undefined && !has(state, UPDATE_FEATURES.specificVersion)) throw new HaError('home_assistant_error', `Installing a specific version is not supported for ${entityId}`)
  if (backup && !has(state, UPDATE_FEATURES.backup)) throw new HaError('home_assistant_error', `Backup is not supported for ${entityId}`)
  if (state.attributes.in_progress !== false) throw new HaError('home_assistant_error', `Update installation already in progress for ${entityId}`)
  const target = typeof version === 'string' ? version : latest
  const house = call.house
  if (!has(state, UPDATE_FEATURES.progress)) {
    const attributes = { ...state.attributes, installed_version: target }
    house.updateState(entityId, { state: stateOf(attributes), attributes }, call.context)
    installedAddonUpdate(house, entityId, target)
    return
  }
  house.updateState(entityId, { attributes: { in_progress: true, update_percentage: 0 } }, call.context)
  const error = await new Promise<string | undefined>(resolve => { runningIn(house).set(entityId, resolve) })
  runningIn(house).delete(entityId)
  const current = house.states.get(entityId)?.attributes ?? {}
  const attributes = { ...current, in_progress: false, update_percentage: null, ...(error === undefined ? { installed_version: target } : {}) }
  house.updateState(entityId, { state: stateOf(attributes), attributes }, call.context)
  if (error !== undefined) throw new HaError('home_assistant_error', error)
  installedAddonUpdate(house, entityId, target)
}

/** update/__init__.py async_skip / async_clear_skipped: refused while auto update is on. */
function skipper (clear: boolean) {
  return (call: ServiceCall, entityId: string, state: HassState): void => {
    if (state.attributes.auto_update === true) throw new HaError('home_assistant_error', `${clear ? 'Clearing skipped update' : 'Skipping update'} is not supported for ${entityId} with auto update enabled`)
    const attributes = { ...state.attributes, skipped_version: clear ? null : state.attributes.latest_version }
    call.house.updateState(entityId, { state: stateOf(attributes), attributes }, call.context)
  }
}

export function updateServices (): ServiceTable {
  return {
    update: {
      install: svc('Install update', 'Installs an update for a device or service.', {
        version: field('Version', { text: {} }),
        backup: field('Backup', { boolean: {} })
      }, { targetDomains: ['update'], perEntity: install }),
      skip: svc('Skip update', 'Marks currently available update as skipped.', {}, { targetDomains: ['update'], perEntity: skipper(false) }),
      clear_skipped: svc('Clear skipped update', 'Removes the skipped version marker from an update.', {}, { targetDomains: ['update'], perEntity: skipper(true) })
    }
  }
}
