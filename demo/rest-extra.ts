import { expandEvents, eventView } from './calendar.ts'
import { snapshotPng } from './camera.ts'
import { historyDuringPeriod } from './history.ts'
import { jsonBody, sendJson, sendText } from './http-util.ts'
import { logbookEvents } from './logbook.ts'
import type { Route } from './rest.ts'
import { renderTemplate, TemplateError } from './template/index.ts'
import { isRecord } from './util.ts'

/** REST endpoints beyond states/services: template, calendars, camera proxy, legacy history/logbook. */
export const extraRoutes: Route[] = [
  {
    method: 'POST',
    pattern: /^\/api\/template$/,
    handle: async ({ rt, req, res }) => {
      let body: unknown
      try { body = await jsonBody(req) } catch { sendJson(res, 400, { message: 'Data should be valid JSON.' }); return }
      if (!isRecord(body)) { sendJson(res, 400, { message: 'Template data should be a JSON object' }); return }
      if (typeof body.template !== 'string') { sendJson(res, 400, { message: "Error rendering template: required key not provided @ data['template']" }); return }
      try {
        const out = renderTemplate(rt.house, body.template, isRecord(body.variables) ? body.variables : {})
        sendText(res, 200, out.text)
      } catch (err) {
        if (!(err instanceof TemplateError)) throw err
        sendJson(res, 400, { message: `Error rendering template: ${err.message}` })
      }
    }
  },
  {
    method: 'GET',
    pattern: /^\/api\/calendars$/,
    handle: ({ rt, res }) => {
      sendJson(res, 200, [...rt.house.states.values()].filter(s => s.entity_id.startsWith('calendar.')).map(s => ({ entity_id: s.entity_id, name: s.attributes.friendly_name })))
    }
  },
  {
    method: 'GET',
    pattern: /^\/api\/calendars\/([^/]+)$/,
    handle: ({ rt, res, params, query }) => {
      const id = params[0] as string
      if (!rt.house.states.has(id) || !id.startsWith('calendar.')) { sendJson(res, 400, { message: 'Entity not found' }); return }
      const start = Date.parse(query.get('start') ?? '')
      const end = Date.parse(query.get('end') ?? '')
      if (Number.isNaN(start) || Number.isNaN(end)) { sendJson(res, 400, { message: 'Error parsing start or end time' }); return }
      if (start >= end) { sendJson(res, 400, { message: 'Start time must be before end time' }); return }
      sendJson(res, 200, expandEvents(rt.house.home.calendars.get(id) ?? [], start, end).map(eventView))
    }
  },
  {
    method: 'GET',
    pattern: /^\/api\/camera_proxy\/([^/]+)$/,
    handle: ({ rt, res, params }) => {
      const id = params[0] as string
      const state = rt.house.states.get(id)
      if (state === undefined || !id.startsWith('camera.')) { sendText(res, 404, '404: Not Found'); return }
      if (state.state === 'unavailable') { sendText(res, 500, '500 Internal Server Error'); return }
      const png = snapshotPng(id)
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length })
      res.end(png)
    }
  },
  {
    method: 'GET',
    pattern: /^\/api\/history\/period(?:\/([^/]+))?$/,
    handle: ({ rt, res, params, query }) => {
      const from = params[0] === undefined ? Date.now() - 86_400_000 : Date.parse(params[0])
      const to = query.has('end_time') ? Date.parse(query.get('end_time') as string) : from + 86_400_000
      if (Number.isNaN(from)) { sendJson(res, 400, { message: 'Invalid datetime' }); return }
      if (Number.isNaN(to)) { sendJson(res, 400, { message: 'Invalid end_time' }); return }
      const ids = (query.get('filter_entity_id') ?? '').split(',').filter(Boolean)
      if (ids.length === 0) { sendJson(res, 400, { message: 'filter_entity_id is missing' }); return }
      const rows = historyDuringPeriod(rt.house, { entityIds: ids, from, to, includeStartTimeState: true, minimalResponse: query.has('minimal_response'), noAttributes: query.has('no_attributes'), significantChangesOnly: query.has('significant_changes_only') })
      sendJson(res, 200, Object.entries(rows).map(([entityId, list]) => list.map(r => {
        const lu = new Date(Number(r.lu) * 1000).toISOString().replace('Z', '+00:00')
        const lc = r.lc === undefined ? lu : new Date(Number(r.lc) * 1000).toISOString().replace('Z', '+00:00')
        return { entity_id: entityId, state: r.s, attributes: r.a ?? {}, last_changed: lc, last_updated: lu }
      })))
    }
  },
  {
    method: 'GET',
    pattern: /^\/api\/logbook(?:\/([^/]+))?$/,
    handle: ({ rt, res, params, query }) => {
      const start = params[0] ?? new Date(Date.now() - 86_400_000).toISOString()
      const entity = query.get('entity')
      const rows = logbookEvents(rt.house, { start_time: start, ...(query.has('end_time') ? { end_time: query.get('end_time') } : {}), ...(entity === null ? {} : { entity_ids: [entity] }) })
      sendJson(res, 200, rows.map(r => ({ ...r, when: new Date(Number(r.when) * 1000).toISOString().replace('Z', '+00:00') })))
    }
  }
]
