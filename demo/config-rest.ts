import { jsonBody, sendJson } from './http-util.ts'
import type { House } from './house.ts'
import type { RestRequest, Route } from './rest.ts'
import type { AutomationDef, ScriptDef } from './generate/home-types.ts'
import { addRuntimeEntity, removeRuntimeEntity } from './runtime-entities.ts'
import { isRecord, slugify } from './util.ts'
import { validateConfig } from './validate.ts'

/**
 * `/api/config/{automation,script}/config/<id>`: the UI's editor API over automations.yaml and
 * scripts.yaml. Like Home Assistant, a write validates, stores, then reloads the domain (the entity
 * appears, changes or disappears) before answering.
 */
type Kind = 'automation' | 'script'

function findUi (house: House, kind: Kind, id: string): AutomationDef | ScriptDef | undefined {
  if (kind === 'automation') return house.home.automations.find(a => a.source === 'ui' && a.id === id)
  return house.home.scripts.find(s => s.source === 'ui' && s.entity_id === `script.${id}`)
}

function invalid (kind: Kind, config: Record<string, unknown>): string | null {
  if (config.use_blueprint !== undefined) return null
  const verdicts = kind === 'automation'
    ? validateConfig({ triggers: config.triggers ?? config.trigger ?? [], conditions: config.conditions ?? config.condition ?? [], actions: config.actions ?? config.action ?? [] })
    : validateConfig({ actions: config.sequence ?? [] })
  for (const verdict of Object.values(verdicts)) if (!verdict.valid) return verdict.error
  return null
}

function write (house: House, kind: Kind, id: string, body: Record<string, unknown>): void {
  const alias = typeof body.alias === 'string' && body.alias !== '' ? body.alias : id
  const existing = findUi(house, kind, id)
  if (kind === 'automation') {
    const config: Record<string, unknown> = { id, ...body }
    if (existing !== undefined) {
      existing.config = config
      house.updateState(existing.entity_id, { attributes: { friendly_name: alias, mode: config.mode ?? 'single' } }, house.newContext(house.userId))
      return
    }
    const base = slugify(alias)
    let entityId = `automation.${base}`
    for (let n = 2; house.entities.has(entityId) || house.states.has(entityId); n++) entityId = `automation.${base}_${n}`
    house.home.automations.push({ entity_id: entityId, id, source: 'ui', config })
    addRuntimeEntity(house, entityId, id, alias, config.initial_state === false ? 'off' : 'on', { id, last_triggered: null, mode: config.mode ?? 'single', current: 0 })
    return
  }
  if (existing !== undefined) {
    existing.config = body
    house.updateState(existing.entity_id, { attributes: { friendly_name: alias, mode: body.mode ?? 'single' } }, house.newContext(house.userId))
    return
  }
  house.home.scripts.push({ entity_id: `script.${id}`, source: 'ui', config: body })
  addRuntimeEntity(house, `script.${id}`, id, alias, 'off', { last_triggered: null, mode: body.mode ?? 'single', current: 0 })
}

function remove (house: House, kind: Kind, def: AutomationDef | ScriptDef): void {
  const list: Array<AutomationDef | ScriptDef> = kind === 'automation' ? house.home.automations : house.home.scripts
  list.splice(list.indexOf(def), 1)
  removeRuntimeEntity(house, def.entity_id)
}

async function handle ({ rt, req, res, method, params }: RestRequest): Promise<void> {
  const kind = params[0] as Kind
  const id = params[1] as string
  const def = findUi(rt.house, kind, id)
  if (method === 'GET') {
    if (def === undefined) sendJson(res, 404, { message: 'Resource not found' })
    else sendJson(res, 200, def.config)
    return
  }
  if (method === 'DELETE') {
    if (def === undefined) { sendJson(res, 400, { message: 'Resource not found' }); return }
    remove(rt.house, kind, def)
    sendJson(res, 200, { result: 'ok' })
    return
  }
  let body: unknown
  try { body = await jsonBody(req) } catch { sendJson(res, 400, { message: 'Invalid JSON specified.' }); return }
  if (!isRecord(body)) { sendJson(res, 400, { message: 'Message malformed: expected a dictionary' }); return }
  const error = invalid(kind, body)
  if (error !== null) { sendJson(res, 400, { message: `Message malformed: ${error}` }); return }
  write(rt.house, kind, id, body)
  sendJson(res, 200, { result: 'ok' })
}

const PATTERN = /^\/api\/config\/(automation|script)\/config\/([^/]+)$/
export const configRoutes: Route[] = ['GET', 'POST', 'DELETE'].map(method => ({ method, pattern: PATTERN, handle }))
