import { z } from 'zod'
import { defineTool } from '../../src/mcp/runtime/define-tool.ts'
import { page } from '../../src/shape.ts'
import { limitArg, offsetArg } from '../_shared/args.ts'
import { resolveArea } from '../_shared/entities.ts'

export default defineTool({
  name: 'ha_list_devices',
  title: 'List devices',
  description: 'Enabled devices: manufacturer, model, area (a child\'s is its parent\'s), entity count; paged.',
  kind: 'read',
  category: 'entities',
  everyday: true,
  keywords: {
    en: 'devices hardware gadgets manufacturer model zigbee zwave which devices do i have bulbs plugs sensors',
    de: 'geräte hardware hersteller modell welche geräte habe ich',
    fr: 'appareils périphériques matériel fabricant modèle quels appareils ai je',
    es: 'dispositivos aparatos hardware fabricante modelo qué dispositivos tengo',
    nl: 'apparaten toestellen hardware fabrikant model welke apparaten heb ik'
  },
  input: z.object({
    area: z.string().trim().min(1).optional().describe('Area id or name.'),
    limit: limitArg(200, 50),
    offset: offsetArg()
  }),
  async handler ({ home }, args) {
    const registries = home.registries
    const areaId = args.area ? resolveArea(home, args.area) : undefined
    const counts = home.counts().device
    const hiding = home.visibility.active
    const devices = [...registries.devices.values()]
      .filter(device => !device.disabled_by)
      // With filter_reads, a device whose every entity is hidden is hidden too.
      .filter(device => !hiding || (counts.get(device.id) ?? 0) > 0)
      .map(device => ({ device, area: registries.deviceArea(device.id) }))
      .filter(({ area }) => areaId === undefined || area === areaId)
      .sort((a, b) => registries.deviceName(a.device).localeCompare(registries.deviceName(b.device)))
    return page(devices, args.offset, args.limit, undefined, ({ device, area }) => {
      const row: Record<string, unknown> = { id: device.id, name: registries.deviceName(device), entities: counts.get(device.id) ?? 0 }
      if (device.manufacturer) row.manufacturer = device.manufacturer
      if (device.model) row.model = device.model
      if (area) row.area = registries.areas.get(area)?.name ?? area
      if (device.parent_device_id) row.parent_device_id = device.parent_device_id
      return row
    })
  }
})
