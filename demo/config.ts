import type { Runtime } from './runtime.ts'

const BASE_COMPONENTS = ['api', 'auth', 'automation', 'config', 'energy', 'frontend', 'history', 'homeassistant', 'http', 'logbook', 'lovelace', 'recorder', 'repairs', 'scene', 'script', 'search', 'system_log', 'trace', 'websocket_api', 'hassio', 'person', 'zone', 'sun', 'tts', 'todo', 'calendar', 'notify', 'weather', 'blueprint']

/** get_config / GET /api/config: hass.config.as_dict(). */
export function buildConfig (rt: Runtime): Record<string, unknown> {
  const domains = new Set<string>()
  const platforms = new Set<string>()
  for (const entry of rt.house.entities.values()) {
    const domain = entry.entity_id.split('.')[0] as string
    domains.add(domain)
    if (entry.platform !== domain) { domains.add(entry.platform); platforms.add(`${domain}.${entry.platform}`) }
  }
  return {
    allowlist_external_dirs: ['/media', '/config/www'],
    allowlist_external_urls: [],
    components: [...new Set([...BASE_COMPONENTS, ...domains, ...platforms])].sort(),
    config_dir: '/config',
    config_source: 'storage',
    country: 'NL',
    currency: 'EUR',
    debug: false,
    elevation: 2,
    external_url: null,
    internal_url: rt.network.internalUrl,
    language: 'en',
    latitude: 52.3731,
    location_name: 'Demo Home',
    longitude: 4.8922,
    radius: 100,
    recovery_mode: false,
    safe_mode: false,
    state: 'RUNNING',
    time_zone: 'Europe/Amsterdam',
    unit_system: { length: 'km', accumulated_precipitation: 'mm', area: 'm²', mass: 'g', pressure: 'Pa', temperature: '°C', volume: 'L', wind_speed: 'm/s' },
    version: rt.options.haVersion,
    whitelist_external_dirs: ['/media', '/config/www']
  }
}
