import type { HomeAssistant } from './index.ts'

/**
 * The useful part of Home Assistant's `get_config`, shared by ha_get_system and ha://config.
 * Location coordinates and directory paths are left out on purpose: nothing needs them.
 */
export async function configSummary (ha: HomeAssistant): Promise<Record<string, unknown>> {
  const c = await ha.command<Record<string, unknown>>({ type: 'get_config' })
  return {
    version: c.version,
    location_name: c.location_name,
    time_zone: c.time_zone,
    country: c.country,
    language: c.language,
    currency: c.currency,
    unit_system: c.unit_system,
    state: c.state,
    config_source: c.config_source,
    safe_mode: c.safe_mode,
    recovery_mode: c.recovery_mode,
    components: Array.isArray(c.components) ? c.components.length : undefined
  }
}
