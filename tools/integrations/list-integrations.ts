import { z } from 'zod'
import { defineTool, type ToolContext } from '../../src/mcp/runtime/define-tool.ts'
import { page } from '../../src/shape.ts'
import { limitArg, offsetArg } from '../_shared/args.ts'
import { configEntries, discoveryFlows, ERROR_STATES, flowName, IGNORED, type ConfigEntry } from '../_shared/config-entries.ts'

/** What owners ask for: working, failing (any setup error), disabled, or stopped otherwise. */
const STATES = ['loaded', 'failing', 'disabled', 'not_loaded'] as const

/** Devices and entities per config entry in one pass over the registries (visible entities only). */
function countsByEntry (ctx: Pick<ToolContext, 'home'>): { devices: Map<string, number>, entities: Map<string, number> } {
  const registries = ctx.home.registries
  const entities = new Map<string, number>()
  const devicesWithVisible = new Set<string>()
  for (const entry of registries.entities.values()) {
    if (entry.config_entry_id === null || !ctx.home.visible(entry.entity_id)) continue
    entities.set(entry.config_entry_id, (entities.get(entry.config_entry_id) ?? 0) + 1)
    if (entry.device_id) devicesWithVisible.add(entry.device_id)
  }
  const hiding = ctx.home.visibility.active
  const devices = new Map<string, number>()
  for (const device of registries.devices.values()) {
    if (hiding && !devicesWithVisible.has(device.id)) continue
    for (const id of device.config_entries) devices.set(id, (devices.get(id) ?? 0) + 1)
  }
  return { devices, entities }
}

function matchesState (entry: ConfigEntry, state: typeof STATES[number] | undefined): boolean {
  if (state === undefined) return true
  if (state === 'disabled') return entry.disabled_by !== null
  if (state === 'failing') return ERROR_STATES.includes(entry.state)
  return entry.state === state
}

export default defineTool({
  name: 'ha_list_integrations',
  title: 'List integrations',
  description: 'Config entries: state, setup error, disabled, options, device and entity counts; discovered and ignored ones.',
  kind: 'read',
  category: 'integrations',
  everyday: false,
  keywords: {
    en: 'integrations list installed which integrations failing not loaded setup error broken hue zigbee mqtt discovered new devices found config entries',
    de: 'integrationen liste installiert welche integrationen fehlerhaft nicht geladen einrichtungsfehler entdeckt gefunden',
    fr: 'intégrations liste installées quelles intégrations en échec non chargées erreur de configuration découvertes trouvées',
    es: 'integraciones lista instaladas qué integraciones fallando no cargadas error de configuración descubiertas encontradas',
    nl: 'integraties lijst geïnstalleerd welke integraties mislukt niet geladen installatiefout ontdekt gevonden'
  },
  // The integrations category is the owner's Settings page: listed with the tool that manages it.
  enabled: options => options.allow_config_write,
  input: z.object({
    domain: z.string().trim().toLowerCase().max(64).optional().describe('Domain.'),
    query: z.string().trim().max(100).optional().describe('Words of the title.'),
    state: z.enum(STATES).optional().describe('failing: setup error or retry.'),
    include_discovered: z.boolean().default(false).describe('Add discovered and ignored.'),
    limit: limitArg(200, 50),
    offset: offsetArg()
  }),
  async handler (ctx, args) {
    const query = args.query?.toLowerCase()
    const all = await configEntries(ctx, args.domain)
    const ignored = all.filter(e => e.source === IGNORED)
    const entries = all
      .filter(e => e.source !== IGNORED && matchesState(e, args.state))
      .filter(e => query === undefined || `${e.title} ${e.domain}`.toLowerCase().includes(query))
      .sort((a, b) => a.domain.localeCompare(b.domain) || a.title.localeCompare(b.title))
    const counts = countsByEntry(ctx)
    const flows = (await discoveryFlows(ctx)).filter(f => args.domain === undefined || f.handler === args.domain)
    const rows = page(entries, args.offset, args.limit, undefined, entry => ({
      entry_id: entry.entry_id,
      domain: entry.domain,
      title: entry.title,
      state: entry.state,
      ...(entry.reason === null ? {} : { reason: entry.reason }),
      ...(entry.disabled_by === null ? {} : { disabled_by: entry.disabled_by }),
      ...(entry.supports_options ? { options: true } : {}),
      ...(entry.supports_reconfigure ? { reconfigure: true } : {}),
      devices: counts.devices.get(entry.entry_id) ?? 0,
      entities: counts.entities.get(entry.entry_id) ?? 0
    }))
    const envelope: Record<string, unknown> = { ...rows }
    if (args.include_discovered) {
      envelope.discovered = flows.map(f => ({ flow_id: f.flow_id, domain: f.handler, name: flowName(f), source: f.context.source, step: f.step_id }))
      envelope.ignored = ignored.map(e => ({ entry_id: e.entry_id, domain: e.domain, title: e.title }))
    } else if (flows.length > 0 || ignored.length > 0) {
      envelope.note = `${flows.length} discovered, ${ignored.length} ignored: include_discovered shows them.`
    }
    return envelope
  }
})
