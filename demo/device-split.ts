import type { House } from './house.ts'
import type { DeviceEntry } from './types.ts'
import { hexId } from './util.ts'

/**
 * Home Assistant 2026.8's split of devices shared by several config entries (core
 * helpers/device_registry.py): each config entry gets a device of its own with a new id, the user's
 * area, labels and name kept on every one; the old id is no longer a registered device and is not
 * listed (DeviceEntry.dict_repr has no composite_device_id), yet targets naming it reach the split
 * devices (helpers/target.py `_resolve_referenced_devices`) and `config/device_registry/update` on it is
 * applied to each of them (the synthesized composite of `DeviceRegistry.async_get`).
 *
 * The demo's devices have one config entry each, so a test splits one on purpose: its entities go, in
 * turn, to a device of its own entry and one of `otherEntry`. Returns the new ids.
 */
export function splitDevice (house: House, deviceId: string, otherEntry: string): string[] {
  const device = house.devices.get(deviceId)
  if (device === undefined) throw new Error(`no device ${deviceId}`)
  const splits: DeviceEntry[] = [device.config_entry_id, otherEntry].map(entry => ({ ...device, id: hexId(Math.random), config_entry_id: entry, labels: [...device.labels] }))
  house.devices.delete(deviceId)
  for (const split of splits) house.devices.set(split.id, split)
  let turn = 0
  for (const entry of house.entities.values()) {
    if (entry.device_id !== deviceId) continue
    entry.device_id = (splits[turn++ % splits.length] as DeviceEntry).id
  }
  house.compositeDevices.set(deviceId, splits.map(split => split.id))
  return splits.map(split => split.id)
}
