import { z } from 'zod'
import { UserError } from '../../src/errors.ts'
import { defineTool } from '../../src/mcp/runtime/define-tool.ts'
import { domainEntityArg } from '../_shared/args.ts'
import { domainRows, readServiceResponse, requireDomainEntity } from '../_shared/read-calls.ts'

const CAPS = { hourly: 48, daily: 14, twice_daily: 14 } as const
const POINT_KEYS = ['datetime', 'condition', 'temperature', 'templow', 'apparent_temperature', 'precipitation', 'precipitation_probability', 'humidity', 'wind_speed', 'wind_bearing', 'is_daytime']
const UNIT_KEYS = ['temperature_unit', 'precipitation_unit', 'wind_speed_unit', 'pressure_unit']

export default defineTool({
  name: 'ha_get_forecast',
  title: 'Get weather forecast',
  description: '48 hourly or 14 daily points; no entity_id: the only weather entity, else a list.',
  kind: 'read',
  category: 'environment',
  everyday: true,
  keywords: {
    en: 'weather forecast rain tomorrow temperature outside sunny snow wind umbrella week raining snowing hot cold',
    de: 'wetter vorhersage regen morgen temperatur draußen sonnig schnee wind regenschirm regnen regnet schneien schneit heiß kalt',
    fr: 'météo prévisions pluie demain température dehors soleil neige vent parapluie pleuvoir pleut neiger neige chaud froid',
    es: 'tiempo clima pronóstico previsión lluvia mañana temperatura fuera soleado nieve viento paraguas llover lloverá llueve nevar nieva calor frío',
    nl: 'weer weersverwachting voorspelling regen morgen temperatuur buiten zonnig sneeuw wind paraplu regenen regent sneeuwen warm koud'
  },
  input: z.object({
    entity_id: domainEntityArg('weather', 'weather.home').optional().describe('Entity id.'),
    type: z.enum(['daily', 'hourly', 'twice_daily']).default('daily').describe('Type.')
  }),
  async handler ({ ha, home }, args) {
    let entityId = args.entity_id
    if (entityId === undefined) {
      const weather = domainRows(home, 'weather')
      if (weather.length === 0) throw new UserError('HAMCP_NOT_SUPPORTED', 'This home has no weather entity.', 'Add a weather integration (for example Met.no) in Home Assistant.')
      if (weather.length > 1) return { weather_entities: weather, note: 'Several weather entities: pass entity_id to get one forecast.' }
      entityId = weather[0]?.entity_id as string
    }
    const row = requireDomainEntity(home, entityId, 'weather', 'Call ha_get_forecast without entity_id to list weather entities.')
    let response: Record<string, unknown>
    try {
      response = await readServiceResponse(ha, 'weather', 'get_forecasts', entityId, { type: args.type })
    } catch (err) {
      if (/not support|invalid|validation/i.test((err as Error).message)) {
        throw new UserError('HAMCP_NOT_SUPPORTED', `${entityId} does not provide ${args.type} forecasts.`, 'Try type daily or hourly.')
      }
      throw err
    }
    const forecast = Array.isArray(response.forecast) ? response.forecast as Array<Record<string, unknown>> : []
    const cap = CAPS[args.type]
    const attributes = home.state(entityId)?.attributes ?? {}
    const units = Object.fromEntries(UNIT_KEYS.filter(k => attributes[k] !== undefined).map(k => [k, attributes[k]]))
    return {
      entity_id: entityId,
      name: row.name,
      now: { condition: row.state, temperature: attributes.temperature, humidity: attributes.humidity },
      type: args.type,
      units,
      forecast: forecast.slice(0, cap).map(point => Object.fromEntries(POINT_KEYS.filter(k => point[k] !== undefined && point[k] !== null).map(k => [k, point[k]]))),
      total: forecast.length,
      note: forecast.length > cap ? `First ${cap} of ${forecast.length} points.` : undefined
    }
  }
})
