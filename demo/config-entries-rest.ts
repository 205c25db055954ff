import { addEntry, entriesOf, entryJson, flowIdOf, reloadEntry, removeEntry, type DemoFlow } from './config-entries.ts'
import { nowMs } from './clock.ts'
import { helperFlowOf } from './helper-flows.ts'
import { jsonBody, sendJson } from './http-util.ts'
import type { RestRequest, Route } from './rest.ts'
import { answerStep, menuSchema, newSchemaFlow, startStep, type SchemaFlowState, type StepOutcome } from './schema-flow.ts'
import { epochSeconds, isRecord } from './util.ts'

/**
 * The config entry REST views of core's components/config/config_entries.py (entry reload and delete,
 * config flows started by handler and walked by id, options flows) and the flow views they build on,
 * helpers/data_entry_flow.py: `{message}` with 404 for an unknown entry, flow or handler,
 * `{errors: {field: message}}` with 400 for a step's input the form refuses (InvalidData), a step
 * answered as FlowResult JSON. The steps themselves are walked by demo/schema-flow.ts.
 */
const notFound = (r: RestRequest, what: 'entry' | 'flow' | 'handler'): void => { sendJson(r.res, 404, { message: `Invalid ${what} specified` }) }

/** A shown step as FlowResult JSON (FlowHandler.async_show_form / async_show_menu, then _prepare_result_json). */
function stepJson (flowId: string, handler: string, outcome: Exclude<StepOutcome, { type: 'create_entry' } | { type: 'invalid' }>): Record<string, unknown> {
  if (outcome.type === 'abort') return { type: 'abort', flow_id: flowId, handler, reason: outcome.reason, description_placeholders: null }
  if (outcome.type === 'menu') return { type: 'menu', flow_id: flowId, handler, step_id: outcome.step_id, data_schema: menuSchema(outcome.menu_options), menu_options: outcome.menu_options, description_placeholders: null }
  return { type: 'form', flow_id: flowId, handler, step_id: outcome.step_id, data_schema: outcome.data_schema, errors: outcome.errors, description_placeholders: null, last_step: outcome.last_step, preview: outcome.preview }
}

/** The current step again (a GET of the flow: async_configure with no input). */
function currentStep (r: RestRequest, state: SchemaFlowState): StepOutcome {
  return state.shown === undefined ? startStep(r.rt.house, state, 'init') : startStep(r.rt.house, state, state.shown.step_id)
}

/** A JSON object body, or nothing (RequestDataValidator(vol.Schema(dict), allow_empty=True)); undefined: refused and answered. */
async function objectBody (r: RestRequest): Promise<Record<string, unknown> | undefined> {
  let body: unknown
  try { body = await jsonBody(r.req) } catch { sendJson(r.res, 400, { message: 'Invalid JSON.' }); return undefined }
  if (body === undefined) return {}
  if (!isRecord(body)) { sendJson(r.res, 400, { message: 'Message format incorrect: expected a dictionary' }); return undefined }
  return body
}

/** The body of a flow start: `{handler, show_advanced_options?}` (FlowManagerIndexView's RequestDataValidator). */
async function startBody (r: RestRequest): Promise<{ handler: string, showAdvanced: boolean } | undefined> {
  const body = await objectBody(r)
  if (body === undefined) return undefined
  if (body.handler === undefined) { sendJson(r.res, 400, { message: "Message format incorrect: required key not provided @ data['handler']" }); return undefined }
  if (typeof body.handler !== 'string') { sendJson(r.res, 400, { message: "Message format incorrect: expected str for dictionary value @ data['handler']" }); return undefined }
  return { handler: body.handler, showAdvanced: body.show_advanced_options === true }
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
    method: 'POST',
    pattern: /^\/api\/config\/config_entries\/flow$/,
    handle: async r => {
      const body = await startBody(r)
      if (body === undefined) return
      const helper = helperFlowOf(body.handler)
      if (helper === undefined) { notFound(r, 'handler'); return }
      const flowId = flowIdOf()
      const state = newSchemaFlow(helper.config, {}, body.showAdvanced, { domain: body.handler })
      const flow: DemoFlow = { flow_id: flowId, handler: body.handler, context: { source: 'user', show_advanced_options: body.showAdvanced }, state, title: helper.title, setupEntities: helper.setupEntities, onRemove: helper.onRemove, ...(helper.options === undefined ? {} : { optionsFlow: helper.options }) }
      entriesOf(r.rt.house).flows.set(flowId, flow)
      answerFlow(r, flow, startStep(r.rt.house, state, 'user'))
    }
  },
  {
    method: 'GET',
    pattern: /^\/api\/config\/config_entries\/flow\/([^/]+)$/,
    handle: r => {
      const flow = entriesOf(r.rt.house).flows.get(r.params[0] as string)
      if (flow === undefined) notFound(r, 'flow')
      else answerFlow(r, flow, currentStep(r, flow.state))
    }
  },
  {
    method: 'POST',
    pattern: /^\/api\/config\/config_entries\/flow\/([^/]+)$/,
    handle: async r => {
      const flow = entriesOf(r.rt.house).flows.get(r.params[0] as string)
      if (flow === undefined) { notFound(r, 'flow'); return }
      const input = await objectBody(r)
      if (input === undefined) return
      answerFlow(r, flow, answerStep(r.rt.house, flow.state, input))
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
      const body = await startBody(r)
      if (body === undefined) return
      const store = entriesOf(r.rt.house)
      const entry = store.entries.get(body.handler)
      if (entry?.optionsFlow === undefined) { notFound(r, 'handler'); return }
      const flowId = flowIdOf()
      const flow = { flow_id: flowId, entry_id: entry.entry_id, state: newSchemaFlow(entry.optionsFlow, entry.options, body.showAdvanced, { entryId: entry.entry_id, domain: entry.domain }) }
      store.optionsFlows.set(flowId, flow)
      answerOptionsFlow(r, flow, startStep(r.rt.house, flow.state, 'init'))
    }
  },
  {
    method: 'GET',
    pattern: /^\/api\/config\/config_entries\/options\/flow\/([^/]+)$/,
    handle: r => {
      const flow = entriesOf(r.rt.house).optionsFlows.get(r.params[0] as string)
      if (flow === undefined) notFound(r, 'flow')
      else answerOptionsFlow(r, flow, currentStep(r, flow.state))
    }
  },
  {
    method: 'POST',
    pattern: /^\/api\/config\/config_entries\/options\/flow\/([^/]+)$/,
    handle: async r => {
      const flow = entriesOf(r.rt.house).optionsFlows.get(r.params[0] as string)
      if (flow === undefined) { notFound(r, 'flow'); return }
      const input = await objectBody(r)
      if (input === undefined) return
      answerOptionsFlow(r, flow, answerStep(r.rt.house, flow.state, input))
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

/**
 * A config flow's step answered: the next step, InvalidData (400), or the new entry
 * (ConfigEntriesFlowManager.async_finish_flow: the entry is added and set up, the flow is gone).
 */
function answerFlow (r: RestRequest, flow: DemoFlow, outcome: StepOutcome): void {
  if (outcome.type === 'invalid') { sendJson(r.res, 400, { errors: outcome.errors }); return }
  if (outcome.type === 'abort') entriesOf(r.rt.house).flows.delete(flow.flow_id)
  if (outcome.type !== 'create_entry') { sendJson(r.res, 200, stepJson(flow.flow_id, flow.handler, outcome)); return }
  entriesOf(r.rt.house).flows.delete(flow.flow_id)
  const entry = addEntry(r.rt.house, {
    domain: flow.handler,
    title: flow.title(outcome.options, r.rt.house),
    source: flow.context.source,
    unique_id: flow.context.unique_id ?? null,
    options: outcome.options,
    ...(flow.optionsFlow === undefined ? {} : { optionsFlow: flow.optionsFlow }),
    ...(flow.setupEntities === undefined ? {} : { setupEntities: flow.setupEntities }),
    ...(flow.onRemove === undefined ? {} : { onRemove: flow.onRemove })
  })
  sendJson(r.res, 200, { type: 'create_entry', flow_id: flow.flow_id, handler: flow.handler, title: entry.title, description: null, description_placeholders: null, version: 1, minor_version: 1, options: entry.options, subentries: [], result: entryJson(entry) })
}

/** An options flow's step answered; on create_entry the options are saved and the entry reloads (its update listener). */
function answerOptionsFlow (r: RestRequest, flow: { flow_id: string, entry_id: string, state: SchemaFlowState }, outcome: StepOutcome): void {
  if (outcome.type === 'invalid') { sendJson(r.res, 400, { errors: outcome.errors }); return }
  if (outcome.type === 'abort') entriesOf(r.rt.house).optionsFlows.delete(flow.flow_id)
  if (outcome.type !== 'create_entry') { sendJson(r.res, 200, stepJson(flow.flow_id, flow.entry_id, outcome)); return }
  const store = entriesOf(r.rt.house)
  store.optionsFlows.delete(flow.flow_id)
  const entry = store.entries.get(flow.entry_id)
  if (entry === undefined) { sendJson(r.res, 200, { type: 'abort', flow_id: flow.flow_id, handler: flow.entry_id, reason: 'unknown_entry', description_placeholders: null }); return }
  entry.options = outcome.options
  entry.modified_at = epochSeconds(nowMs())
  reloadEntry(r.rt.house, entry)
  r.rt.house.configWrites.push(`config_entries options ${entry.entry_id}`)
  sendJson(r.res, 200, { type: 'create_entry', flow_id: flow.flow_id, handler: entry.entry_id, title: '', description: null, description_placeholders: null, version: 1, minor_version: 1 })
}
