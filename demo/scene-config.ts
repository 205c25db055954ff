import type { SceneDef } from './generate/home-types.ts'
import { jsonBody, sendJson } from './http-util.ts'
import type { House } from './house.ts'
import type { RestRequest, Route } from './rest.ts'
import { addRuntimeEntity, removeRuntimeEntity } from './runtime-entities.ts'
import { isRecord, slugify } from './util.ts'

/**
 * `/api/config/scene/config/<id>`: the scene editor's API over scenes.yaml. Like Home Assistant, a POST
 * validates with the scene platform schema, stores the config (id first, then name and entities) and
 * reloads scenes: a new id makes a `scene.<slug of name>` entity, a known one keeps its entity id. A
 * DELETE stores, then removes the entity from the registry and the state machine.
 */
const ENTITY_ID = /^[a-z0-9_]+\.[a-z0-9_]+$/
const KNOWN_KEYS = new Set(['id', 'name', 'entities', 'icon', 'metadata'])

function uiScene (house: House, id: string): SceneDef | undefined {
  return house.home.scenes.find(s => s.id === id)
}

export function sceneConfig (def: SceneDef): Record<string, unknown> {
  return def.config ?? { id: def.id, name: def.name, entities: def.entities }
}

/** The homeassistant scene platform's schema, worded like voluptuous. */
function problem (body: Record<string, unknown>): string | null {
  for (const key of Object.keys(body)) if (!KNOWN_KEYS.has(key)) return `extra keys not allowed @ data['${key}']`
  if (body.name === undefined) return "required key not provided @ data['name']"
  if (typeof body.name !== 'string') return "expected str for dictionary value @ data['name']"
  if (body.entities === undefined) return "required key not provided @ data['entities']"
  if (!isRecord(body.entities)) return "expected a dictionary for dictionary value @ data['entities']"
  for (const [entityId, spec] of Object.entries(body.entities)) {
    if (!ENTITY_ID.test(entityId)) return `invalid entity ID ${entityId} for dictionary value @ data['entities']`
    if (spec !== null && typeof spec === 'object' && !isRecord(spec)) return `expected a dictionary for dictionary value @ data['entities']['${entityId}']`
  }
  if (body.icon !== undefined && (typeof body.icon !== 'string' || !/^[a-z0-9-]+:[a-z0-9-]+$/.test(body.icon))) return 'Icons should be specified in the form "prefix:name" for dictionary value @ data[\'icon\']'
  return null
}

const normalised = (entities: Record<string, unknown>): Record<string, Record<string, unknown>> =>
  Object.fromEntries(Object.entries(entities).map(([id, spec]) => [id, isRecord(spec) ? spec : { state: spec }]))

function attributesOf (config: Record<string, unknown>, id: string): Record<string, unknown> {
  return { id, entity_id: Object.keys(isRecord(config.entities) ? config.entities : {}), ...(typeof config.icon === 'string' ? { icon: config.icon } : {}) }
}

/** scene.reload: stored configs become entities again; scenes made with scene.create are gone. */
export function reloadScenes (house: House): void {
  const scenes = house.home.scenes
  for (let i = scenes.length - 1; i >= 0; i--) {
    const def = scenes[i] as SceneDef
    if (def.id === null) {
      scenes.splice(i, 1)
      house.removeState(def.entity_id, house.newContext(house.userId))
    }
  }
}

function write (house: House, id: string, body: Record<string, unknown>): void {
  const config: Record<string, unknown> = { id, name: body.name, entities: body.entities, ...body }
  config.id = id
  const name = String(body.name)
  const existing = uiScene(house, id)
  if (existing !== undefined) {
    existing.config = config
    existing.name = name
    existing.entities = normalised(body.entities as Record<string, unknown>)
    if (house.states.has(existing.entity_id)) house.updateState(existing.entity_id, { attributes: { ...attributesOf(config, id), friendly_name: name } }, house.newContext(house.userId))
    else addRuntimeEntity(house, existing.entity_id, id, name, 'unknown', attributesOf(config, id))
    return
  }
  const base = `scene.${slugify(name)}`
  let entityId = base
  for (let n = 2; house.entities.has(entityId) || house.states.has(entityId); n++) entityId = `${base}_${n}`
  house.home.scenes.push({ entity_id: entityId, id, name, entities: normalised(body.entities as Record<string, unknown>), config })
  addRuntimeEntity(house, entityId, id, name, 'unknown', attributesOf(config, id))
  const entry = house.entities.get(entityId)
  if (entry !== undefined) entry.platform = 'homeassistant'
}

async function handle ({ rt, req, res, method, params }: RestRequest): Promise<void> {
  const id = params[0] as string
  const { house } = rt
  const def = uiScene(house, id)
  if (method === 'GET') {
    if (def === undefined) sendJson(res, 404, { message: 'Resource not found' })
    else sendJson(res, 200, sceneConfig(def))
    return
  }
  if (method === 'DELETE') {
    if (def === undefined) { sendJson(res, 400, { message: 'Resource not found' }); return }
    house.home.scenes.splice(house.home.scenes.indexOf(def), 1)
    house.configWrites.push(`DELETE /api/config/scene/config/${id}`)
    removeRuntimeEntity(house, def.entity_id)
    sendJson(res, 200, { result: 'ok' })
    return
  }
  let body: unknown
  try { body = await jsonBody(req) } catch { sendJson(res, 400, { message: 'Invalid JSON specified' }); return }
  if (!isRecord(body)) { sendJson(res, 400, { message: 'Message malformed: expected a dictionary' }); return }
  const error = problem(body)
  if (error !== null) { sendJson(res, 400, { message: `Message malformed: ${error}` }); return }
  house.configWrites.push(`POST /api/config/scene/config/${id}`)
  write(house, id, body)
  sendJson(res, 200, { result: 'ok' })
}

const PATTERN = /^\/api\/config\/scene\/config\/([^/]+)$/
export const sceneConfigRoutes: Route[] = ['GET', 'POST', 'DELETE'].map(method => ({ method, pattern: PATTERN, handle }))
