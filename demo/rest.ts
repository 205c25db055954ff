import { adminOnlyPath } from './admin-only.ts'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { buildConfig } from './config.ts'
import { HaError } from './errors.ts'
import { bearer, jsonBody, sendJson, sendText } from './http-util.ts'
import type { Runtime } from './runtime.ts'
import { ENTITY_ID, isRecord } from './util.ts'

export interface RestRequest {
  rt: Runtime
  req: IncomingMessage
  res: ServerResponse
  method: string
  params: string[]
  query: URLSearchParams
}

export interface Route {
  method: string
  pattern: RegExp
  handle: (r: RestRequest) => Promise<void> | void
}

const notFound = (res: ServerResponse): void => { sendJson(res, 404, { message: 'Entity not found.' }) }

const statusFor = (err: HaError): number => err.code === 'unauthorized' ? 401 : err.code === 'not_found' ? 400 : 400

async function callService ({ rt, req, res, params, query }: RestRequest): Promise<void> {
  let body: unknown
  try { body = await jsonBody(req) } catch { sendJson(res, 400, { message: 'Data should be valid JSON.' }); return }
  if (body !== undefined && !isRecord(body)) { sendJson(res, 400, { message: 'Data should be a JSON object.' }); return }
  const returnResponse = query.has('return_response')
  try {
    const outcome = await rt.services.call({ domain: params[0] as string, service: params[1] as string, serviceData: body ?? {}, returnResponse, via: 'rest' })
    const changed = [...new Set(outcome.changed)].map(id => rt.house.states.get(id)).filter(s => s !== undefined)
    sendJson(res, 200, returnResponse ? { changed_states: changed, service_response: outcome.response } : changed)
  } catch (err) {
    if (err instanceof HaError) sendJson(res, statusFor(err), { message: err.message })
    else throw err
  }
}

export const coreRoutes: Route[] = [
  { method: 'GET', pattern: /^\/api\/$/, handle: ({ res }) => { sendJson(res, 200, { message: 'API running.' }) } },
  { method: 'GET', pattern: /^\/api\/config$/, handle: ({ rt, res }) => { sendJson(res, 200, buildConfig(rt)) } },
  { method: 'GET', pattern: /^\/api\/states$/, handle: ({ rt, res }) => { sendJson(res, 200, rt.house.statesArrayJson(), true) } },
  {
    method: 'GET',
    pattern: /^\/api\/states\/([^/]+)$/,
    handle: ({ rt, res, params }) => {
      const json = rt.house.stateJson(params[0] as string)
      if (json === undefined) notFound(res)
      else sendJson(res, 200, json, true)
    }
  },
  {
    method: 'POST',
    pattern: /^\/api\/states\/([^/]+)$/,
    handle: async ({ rt, req, res, params }) => {
      const entityId = params[0] as string
      let body: unknown
      try { body = await jsonBody(req) } catch { sendJson(res, 400, { message: 'Invalid JSON specified.' }); return }
      if (!isRecord(body) || body.state === undefined) { sendJson(res, 400, { message: 'No state specified.' }); return }
      if (!ENTITY_ID.test(entityId)) { sendJson(res, 400, { message: 'Invalid entity ID specified.' }); return }
      const existed = rt.house.states.has(entityId)
      const state = rt.house.setState(entityId, String(body.state), isRecord(body.attributes) ? body.attributes : {}, rt.house.newContext(rt.house.userId))
      res.setHeader('location', `/api/states/${entityId}`)
      sendJson(res, existed ? 200 : 201, state)
    }
  },
  {
    method: 'DELETE',
    pattern: /^\/api\/states\/([^/]+)$/,
    handle: ({ rt, res, params }) => {
      if (!rt.house.states.has(params[0] as string)) { notFound(res); return }
      rt.house.removeState(params[0] as string)
      sendJson(res, 200, { message: 'Entity removed.' })
    }
  },
  {
    method: 'GET',
    pattern: /^\/api\/services$/,
    handle: ({ rt, res }) => {
      const all = JSON.parse(rt.services.descriptions()) as Record<string, unknown>
      sendJson(res, 200, Object.entries(all).map(([domain, services]) => ({ domain, services })))
    }
  },
  { method: 'POST', pattern: /^\/api\/services\/([^/]+)\/([^/]+)$/, handle: callService },
  {
    method: 'POST',
    pattern: /^\/api\/events\/([^/]+)$/,
    handle: async ({ rt, req, res, params }) => {
      let body: unknown
      try { body = await jsonBody(req) } catch { sendJson(res, 400, { message: 'Event data should be valid JSON.' }); return }
      rt.house.fire(params[0] as string, isRecord(body) ? body : {}, rt.house.newContext(rt.house.userId))
      sendJson(res, 200, { message: `Event ${params[0] as string} fired.` })
    }
  },
  { method: 'GET', pattern: /^\/api\/error_log$/, handle: ({ res }) => { sendText(res, 404, '404: Not Found') } }
]

/** Core REST under /api (directly or through the Supervisor's /core proxy). */
export async function handleCoreRest (rt: Runtime, req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams, viaSupervisor: boolean, routes: Route[]): Promise<void> {
  const token = bearer(req) ?? (viaSupervisor && typeof req.headers['x-ha-access'] === 'string' ? req.headers['x-ha-access'] : undefined)
  const expected = viaSupervisor ? rt.options.supervisorToken : rt.options.token
  // HA's camera proxy also opens with the camera's own access token in ?token=, and nothing else.
  const camera = /^\/api\/camera_proxy\/([^/]+)$/.exec(path)?.[1]
  const cameraToken = camera === undefined ? undefined : rt.house.states.get(decodeURIComponent(camera))?.attributes.access_token
  const byCameraToken = typeof cameraToken === 'string' && query.get('token') === cameraToken
  if (token !== expected && !byCameraToken) {
    sendText(res, 401, viaSupervisor ? '401: Unauthorized' : '401: Unauthorized')
    return
  }
  if (viaSupervisor && /^\/api\/hassio[/_]/.test(path)) { sendText(res, 403, '403: Forbidden'); return }
  if (!viaSupervisor && !rt.options.admin && adminOnlyPath(path)) { sendText(res, 401, '401: Unauthorized'); return }
  const method = req.method ?? 'GET'
  let pathMatched = false
  for (const route of routes) {
    const match = route.pattern.exec(path)
    if (match === null) continue
    pathMatched = true
    if (route.method !== method) continue
    await route.handle({ rt, req, res, method, params: match.slice(1).map(decodeURIComponent), query })
    return
  }
  if (pathMatched) sendText(res, 405, '405: Method Not Allowed')
  else sendText(res, 404, '404: Not Found')
}
