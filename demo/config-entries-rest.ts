import { addEntry, entriesOf, entryJson, flowIdOf, formFault, reloadEntry, removeEntry, type DemoFlow, type FormField } from './config-entries.ts'
import { nowMs } from './clock.ts'
import { jsonBody, sendJson } from './http-util.ts'
import type { RestRequest, Route } from './rest.ts'
import { epochSeconds, isRecord } from './util.ts'

/**
 * The config entry REST views of core's components/config/config_entries.py (entry reload and delete,
 * config flows by id, options flows) and the flow views they build on, helpers/data_entry_flow.py:
 * `{message}` with 404 for an unknown entry, flow or handler, `{errors: {field: message}}` with 400 for
 * a step's input the form refuses, a step answered as FlowResult JSON.
 */
const notFound = (r: RestRequest, what: 'entry' | 'flow' | 'handler'): void => { sendJson(r.res, 404, { message: `Invalid ${what} specified` }) }

/** voluptuous_serialize's form of a field: the current value as `default`, `required` or `optional`. */
const serialized = (fields: FormField[]): Array<Record<string, unknown>> =>
  fields.map(f => ({ name: f.name, type: f.type, ...(f.required === true ? { required: true } : { optional: true }), ...(f.default === undefined ? {} : { default: f.default }) }))

const formResult = (flowId: string, handler: string, stepId: string, fields: FormField[]): Record<string, unknown> =>
  ({ type: 'form', flow_id: flowId, handler, step_id: stepId, data_schema: serialized(fields), errors: null, description_placeholders: null, last_step: null, preview: null })

function stepResult (flow: DemoFlow): Record<string, unknown> {
  if (flow.step.type === 'external') return { type: 'external', flow_id: flow.flow_id, handler: flow.handler, step_id: flow.step_id, url: flow.step.url, description_placeholders: null }
  return formResult(flow.flow_id, flow.handler, flow.step_id, flow.step.fields)
}

/** A step's body: a JSON object, or nothing (RequestDataValidator(vol.Schema(dict), allow_empty=True)). */
async function stepInput (r: RestRequest): Promise<Record<string, unknown> | undefined> {
  let body: unknown
  try { body = await jsonBody(r.req) } catch { sendJson(r.res, 400, { message: 'Invalid JSON.' }); return undefined }
  if (body === undefined) return {}
  if (!isRecord(body)) { sendJson(r.res, 400, { message: 'Message format incorrect: expected a dictionary' }); return undefined }
  return body
}

export const configEntryRoutes: Route[] = [
  {
    method: 'POST',
    pattern: /^\/api\/config\/config_entries\/entry\/([^/]+)\/reload$/,
    handle: r => {
      const entry = entriesOf(r.rt.house).entries.get(r.params[0] as string)
      if (entry === undefined) { notFound(r, 'entry'); return }
      reloadEntry(r.rt.house, entry)
      sendJson(r.res, 200, { require_restart: false })
    }
  },
  {
    method: 'DELETE',
    pattern: /^\/api\/config\/config_entries\/entry\/([^/]+)$/,
    handle: r => {
      const entry = entriesOf(r.rt.house).entries.get(r.params[0] as string)
      if (entry === undefined) { notFound(r, 'entry'); return }
      sendJson(r.res, 200, removeEntry(r.rt.house, entry))
    }
  },
  {
    method: 'GET',
    pattern: /^\/api\/config\/config_entries\/flow\/([^/]+)$/,
    handle: r => {
      const flow = entriesOf(r.rt.house).flows.get(r.params[0] as string)
      if (flow === undefined) notFound(r, 'flow')
      else sendJson(r.res, 200, stepResult(flow))
    }
  },
  {
    method: 'POST',
    pattern: /^\/api\/config\/config_entries\/flow\/([^/]+)$/,
    handle: async r => {
      const store = entriesOf(r.rt.house)
      const flow = store.flows.get(r.params[0] as string)
      if (flow === undefined) { notFound(r, 'flow'); return }
      const input = await stepInput(r)
      if (input === undefined) return
      if (flow.step.type !== 'form') { sendJson(r.res, 200, stepResult(flow)); return }
      const fault = formFault(flow.step.fields, input)
      if (fault !== undefined) { sendJson(r.res, 400, { errors: fault }); return }
      store.flows.delete(flow.flow_id)
      const entry = addEntry(r.rt.house, { domain: flow.handler, title: flow.makes.title, source: flow.context.source, unique_id: flow.context.unique_id ?? null })
      sendJson(r.res, 200, { type: 'create_entry', flow_id: flow.flow_id, handler: flow.handler, title: entry.title, description: null, description_placeholders: null, version: 1, minor_version: 1, options: {}, subentries: [], result: entryJson(entry) })
    }
  },
  {
    method: 'DELETE',
    pattern: /^\/api\/config\/config_entries\/flow\/([^/]+)$/,
    handle: r => {
      if (!entriesOf(r.rt.house).flows.delete(r.params[0] as string)) notFound(r, 'flow')
      else sendJson(r.res, 200, { message: 'Flow aborted' })
    }
  },
  {
    // The handler of an options flow is the entry id; an entry without an options flow is an unknown handler.
    method: 'POST',
    pattern: /^\/api\/config\/config_entries\/options\/flow$/,
    handle: async r => {
      let body: unknown
      try { body = await jsonBody(r.req) } catch { sendJson(r.res, 400, { message: 'Invalid JSON.' }); return }
      if (!isRecord(body) || typeof body.handler !== 'string') { sendJson(r.res, 400, { message: "Message format incorrect: required key not provided @ data['handler']" }); return }
      const store = entriesOf(r.rt.house)
      const entry = store.entries.get(body.handler)
      if (entry?.optionsForm === undefined) { notFound(r, 'handler'); return }
      const flowId = flowIdOf()
      store.optionsFlows.set(flowId, { flow_id: flowId, entry_id: entry.entry_id })
      sendJson(r.res, 200, formResult(flowId, entry.entry_id, 'init', optionsFields(entry.optionsForm, entry.options)))
    }
  },
  {
    method: 'GET',
    pattern: /^\/api\/config\/config_entries\/options\/flow\/([^/]+)$/,
    handle: r => {
      const store = entriesOf(r.rt.house)
      const flow = store.optionsFlows.get(r.params[0] as string)
      const entry = flow && store.entries.get(flow.entry_id)
      if (flow === undefined || entry?.optionsForm === undefined) { notFound(r, 'flow'); return }
      sendJson(r.res, 200, formResult(flow.flow_id, entry.entry_id, 'init', optionsFields(entry.optionsForm, entry.options)))
    }
  },
  {
    method: 'POST',
    pattern: /^\/api\/config\/config_entries\/options\/flow\/([^/]+)$/,
    handle: async r => {
      const store = entriesOf(r.rt.house)
      const flow = store.optionsFlows.get(r.params[0] as string)
      const entry = flow && store.entries.get(flow.entry_id)
      if (flow === undefined || entry?.optionsForm === undefined) { notFound(r, 'flow'); return }
      const input = await stepInput(r)
      if (input === undefined) return
      const fault = formFault(entry.optionsForm, input)
      if (fault !== undefined) { sendJson(r.res, 400, { errors: fault }); return }
      store.optionsFlows.delete(flow.flow_id)
      // OptionsFlowManager.async_finish_flow: the options become the step's data; the entry's update listener reloads it.
      const defaults = Object.fromEntries(entry.optionsForm.filter(f => f.default !== undefined).map(f => [f.name, f.default]))
      entry.options = { ...defaults, ...input }
      entry.modified_at = epochSeconds(nowMs())
      reloadEntry(r.rt.house, entry)
      r.rt.house.configWrites.push(`config_entries options ${entry.entry_id}`)
      sendJson(r.res, 200, { type: 'create_entry', flow_id: flow.flow_id, handler: entry.entry_id, title: '', description: null, description_placeholders: null, version: 1, minor_version: 1 })
    }
  },
  {
    method: 'DELETE',
    pattern: /^\/api\/config\/config_entries\/options\/flow\/([^/]+)$/,
    handle: r => {
      if (!entriesOf(r.rt.house).optionsFlows.delete(r.params[0] as string)) notFound(r, 'flow')
      else sendJson(r.res, 200, { message: 'Flow aborted' })
    }
  }
]

/** The options form with the entry's current options as each field's default, as Hue's flow builds it. */
function optionsFields (form: FormField[], options: Record<string, unknown>): FormField[] {
  return form.map(f => options[f.name] === undefined ? f : { ...f, default: options[f.name] })
}
