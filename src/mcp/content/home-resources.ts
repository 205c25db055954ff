import { levelIn, type Identity } from '../../auth/identity.ts'
import { configSummary } from '../../ha/config-summary.ts'
import { truncateAttributes } from '../../home/attributes.ts'
import { fitToCap } from '../../shape.ts'
import type { ToolContext } from '../runtime/define-tool.ts'
import { ResourceNotFound, type ResourceContents, type ResourceInfo, type ResourceTemplateInfo } from './surface.ts'

const JSON_TYPE = 'application/json'
const NOTABLE_STATES = new Set(['on', 'open', 'opening', 'playing', 'heat', 'cool', 'heat_cool', 'unlocked', 'triggered', 'cleaning'])
const NOTABLE_CAP = 10

export const ENTITY_TEMPLATE = 'ha://entity/{entity_id}'
export const AREA_TEMPLATE = 'ha://area/{area_id}'

export const FIXED_RESOURCES: ResourceInfo[] = [
  { uri: 'ha://areas', name: 'areas', title: 'Areas', description: 'Every area with its floor and number of entities.', mimeType: JSON_TYPE },
  { uri: 'ha://services', name: 'services', title: 'Service domains', description: 'Service domains with their number of services.', mimeType: JSON_TYPE },
  { uri: 'ha://config', name: 'config', title: 'Home Assistant configuration', description: 'Version, time zone, units, currency and state.', mimeType: JSON_TYPE }
]

export const RESOURCE_TEMPLATES: ResourceTemplateInfo[] = [
  { uriTemplate: ENTITY_TEMPLATE, name: 'entity', title: 'Entity', description: 'State, area and attributes of one entity.', mimeType: JSON_TYPE },
  { uriTemplate: AREA_TEMPLATE, name: 'area', title: 'Area summary', description: 'Entity counts by domain and what is on, open or playing in one area.', mimeType: JSON_TYPE }
]

/** A resource's JSON, held to the answer cap like a tool's answer (an entity may have any number of attributes). */
function contents (uri: string, value: unknown, ctx: ToolContext): ResourceContents {
  return { contents: [{ uri, mimeType: JSON_TYPE, text: ctx.home.scrub(JSON.stringify(fitToCap(value))) }] }
}

function entityResource (entityId: string, uri: string, ctx: ToolContext): ResourceContents {
  const row = ctx.home.entity(entityId)
  if (!row) throw new ResourceNotFound(uri)
  const state = ctx.home.state(entityId)
  return contents(uri, {
    entity_id: row.entity_id,
    name: row.name,
    state: row.state,
    area: row.area,
    floor: row.floor,
    last_changed: state?.last_changed,
    attributes: truncateAttributes(state?.attributes ?? {}).attributes
  }, ctx)
}

function areaResource (areaId: string, uri: string, ctx: ToolContext): ResourceContents {
  const registries = ctx.home.registries
  const area = registries.areas.get(areaId)
  if (!area) throw new ResourceNotFound(uri)
  const rows = ctx.home.entities().filter(row => row.area_id === areaId)
  const byDomain: Record<string, number> = {}
  for (const row of rows) byDomain[row.domain] = (byDomain[row.domain] ?? 0) + 1
  const notable = rows.filter(row => NOTABLE_STATES.has(row.state)).slice(0, NOTABLE_CAP)
    .map(row => ({ entity_id: row.entity_id, name: row.name, state: row.state }))
  return contents(uri, {
    area_id: areaId,
    name: area.name,
    floor: area.floor_id ? registries.floors.get(area.floor_id)?.name ?? area.floor_id : null,
    entity_count: rows.length,
    by_domain: byDomain,
    notable
  }, ctx)
}

/** The category whose read level a resource needs: that of the tools reading the same facts. */
export function resourceCategory (uri: string): string {
  if (uri === 'ha://services') return 'services'
  if (uri === 'ha://config') return 'system'
  return 'entities'
}

/** Whether a token's levels allow reading a resource (the camera level aside, any level reads). */
export function mayReadResource (uri: string, identity: Identity): boolean {
  return levelIn(identity.levels, resourceCategory(uri)) !== 'none'
}

/** Reads one resource; every entity in it passes the same visibility rule as the tools. */
export async function readHomeResource (uri: string, ctx: ToolContext): Promise<ResourceContents> {
  await ctx.home.ready()
  if (uri === 'ha://areas') {
    const registries = ctx.home.registries
    const counts = ctx.home.counts().area
    const items = [...registries.areas.values()].sort((a, b) => a.name.localeCompare(b.name)).map(area => ({
      area_id: area.area_id,
      name: area.name,
      floor: area.floor_id ? registries.floors.get(area.floor_id)?.name ?? area.floor_id : null,
      entities: counts.get(area.area_id) ?? 0
    }))
    return contents(uri, { items, total: items.length }, ctx)
  }
  if (uri === 'ha://services') {
    const all = await ctx.ha.command<Record<string, Record<string, unknown>>>({ type: 'get_services' })
    const domains = Object.entries(all).map(([domain, services]) => ({ domain, services: Object.keys(services).length }))
      .sort((a, b) => (a.domain < b.domain ? -1 : 1))
    return contents(uri, { domains, total: domains.length }, ctx)
  }
  if (uri === 'ha://config') return contents(uri, await configSummary(ctx.ha), ctx)
  const entity = /^ha:\/\/entity\/([^/?#]+)$/.exec(uri)
  if (entity) return entityResource(decodeURIComponent(entity[1] as string), uri, ctx)
  const area = /^ha:\/\/area\/([^/?#]+)$/.exec(uri)
  if (area) return areaResource(decodeURIComponent(area[1] as string), uri, ctx)
  throw new ResourceNotFound(uri)
}
