import { serializeFields, validateForm, type FieldErrors, type FormField } from './flow-schema.ts'
import type { House } from './house.ts'

/**
 * How the demo walks a flow's steps, after core's helpers/schema_config_entry_flow.py
 * (SchemaCommonFlowHandler: SchemaFlowFormStep, SchemaFlowMenuStep, validate_user_input raising
 * SchemaFlowError shown as errors.base, next_step, suggested values from the options so far) and
 * data_entry_flow.py (FlowManager._async_configure: the input is checked against the form last shown,
 * a menu is answered with next_step_id). Every demo flow runs on it: discoveries, Hue's options,
 * the helper integrations of demo/helper-flows.ts.
 */

/** A validate_user_input refusal: its message is the error key the form shows as `errors.base`. */
export class SchemaFlowError extends Error {}

/** data_entry_flow.AbortFlow: the flow ends with `{type: 'abort', reason}` (its message). */
export class AbortFlow extends Error {}

export interface StepContext {
  house: House
  /** The options gathered so far (an options flow starts from the entry's). */
  options: Record<string, unknown>
  /** The entry an options flow edits. */
  entryId?: string
  /** The integration the flow belongs to. */
  domain?: string
}

export interface FormStep {
  /** The fields asked; a function of the flow so far; undefined: nothing is asked, the flow moves on. */
  schema?: FormField[] | ((ctx: StepContext) => FormField[])
  /** Extra validation after the schema's (SchemaFlowError refuses), returning what the options take. */
  validate?: (input: Record<string, unknown>, ctx: StepContext) => Record<string, unknown>
  /** The step after this one; undefined: the flow ends and the entry (or its options) is saved. */
  next?: string | ((options: Record<string, unknown>) => string | undefined)
  /** false: no suggested values from the options (SchemaFlowFormStep(suggested_values=None), or a flow that sets defaults). */
  suggest?: boolean
  /** The preview component the frontend shows beside the form. */
  preview?: string
}

export interface MenuStep { menu: string[] }

export type FlowStep = FormStep | MenuStep
export type StepTable = Record<string, FlowStep>

/** What the flow shows now (cur_step), kept to check the next answer against it. */
type Shown = { type: 'menu', step_id: string, menu_options: string[] } | { type: 'form', step_id: string, fields: FormField[] }

export interface SchemaFlowState {
  steps: StepTable
  options: Record<string, unknown>
  showAdvanced: boolean
  entryId?: string
  domain?: string
  shown?: Shown
}

/** A step's outcome; `invalid` is data_entry_flow.InvalidData (HTTP 400 `{errors}`). */
export type StepOutcome =
  | { type: 'form', step_id: string, data_schema: Array<Record<string, unknown>>, errors: Record<string, string> | null, last_step: boolean | null, preview: string | null }
  | { type: 'menu', step_id: string, menu_options: string[] }
  | { type: 'create_entry', options: Record<string, unknown> }
  | { type: 'abort', reason: string }
  | { type: 'invalid', errors: FieldErrors }

export function newSchemaFlow (steps: StepTable, options: Record<string, unknown>, showAdvanced: boolean, where: { entryId?: string, domain?: string } = {}): SchemaFlowState {
  return { steps, options: structuredClone(options), showAdvanced, ...where }
}

/** async_init: the first step, with no input. */
export function startStep (house: House, flow: SchemaFlowState, stepId: string): StepOutcome {
  return runStep(house, flow, stepId, undefined)
}

/** async_configure: the answer to the step shown, checked against it first. */
export function answerStep (house: House, flow: SchemaFlowState, input: Record<string, unknown>): StepOutcome {
  const shown = flow.shown
  if (shown === undefined) throw new Error('flow has no step shown')
  if (shown.type === 'menu') {
    // async_show_menu's data_schema: vol.Schema({"next_step_id": vol.In(menu_options)}).
    const extra = Object.keys(input).find(key => key !== 'next_step_id')
    if (extra !== undefined) return { type: 'invalid', errors: { base: [`extra keys not allowed @ data['${extra}']`] } }
    if (input.next_step_id === undefined) return runStep(house, flow, shown.step_id, undefined)
    if (typeof input.next_step_id !== 'string' || !shown.menu_options.includes(input.next_step_id)) {
      return { type: 'invalid', errors: { next_step_id: `value must be one of [${[...shown.menu_options].sort().map(o => `'${o}'`).join(', ')}]` } }
    }
    return runStep(house, flow, input.next_step_id, undefined)
  }
  const checked = validateForm(shown.fields, input, flow.showAdvanced)
  if ('errors' in checked) return { type: 'invalid', errors: checked.errors }
  return runStep(house, flow, shown.step_id, checked.values)
}

/** The menu's form as voluptuous_serialize writes vol.In: a select of (value, label) pairs. */
export const menuSchema = (options: string[]): Array<Record<string, unknown>> => [{ type: 'select', options: options.map(o => [o, o]), name: 'next_step_id' }]

const ctxOf = (house: House, flow: SchemaFlowState): StepContext => ({ house, options: flow.options, ...(flow.entryId === undefined ? {} : { entryId: flow.entryId }), ...(flow.domain === undefined ? {} : { domain: flow.domain }) })

function fieldsOf (house: House, flow: SchemaFlowState, step: FormStep): FormField[] | undefined {
  return typeof step.schema === 'function' ? step.schema(ctxOf(house, flow)) : step.schema
}

function stepOf (flow: SchemaFlowState, stepId: string): FlowStep {
  const step = flow.steps[stepId]
  if (step === undefined) throw new Error(`flow has no step ${stepId}`)
  return step
}

/** SchemaCommonFlowHandler.async_step. */
function runStep (house: House, flow: SchemaFlowState, stepId: string, input: Record<string, unknown> | undefined): StepOutcome {
  const step = stepOf(flow, stepId)
  if ('menu' in step) return show(house, flow, stepId)
  let accepted = input
  if (accepted !== undefined && !flow.showAdvanced) {
    // An advanced field the form did not show takes its default, unless the options already hold it.
    const hidden = (fieldsOf(house, flow, step) ?? []).filter(f => f.advanced === true && f.default !== undefined && !(f.name in flow.options))
    if (hidden.length > 0) accepted = { ...accepted, ...Object.fromEntries(hidden.map(f => [f.name, f.default])) }
  }
  if (accepted !== undefined && step.validate !== undefined) {
    try { accepted = step.validate(accepted, ctxOf(house, flow)) } catch (err) {
      if (err instanceof SchemaFlowError) return show(house, flow, stepId, err, accepted)
      if (err instanceof AbortFlow) return { type: 'abort', reason: err.message }
      throw err
    }
  }
  if (accepted !== undefined) mergeOptions(flow.options, accepted, fieldsOf(house, flow, step) ?? [], flow.showAdvanced)
  if (accepted !== undefined || step.schema === undefined) return nextOrFinish(house, flow, step)
  return show(house, flow, stepId)
}

/**
 * The options take the step's input; an optional field left out is dropped from them too, so an
 * options flow can clear it (schema_config_entry_flow.py _update_and_remove_omitted_optional_keys).
 */
function mergeOptions (options: Record<string, unknown>, input: Record<string, unknown>, fields: FormField[], showAdvanced: boolean): void {
  Object.assign(options, input)
  for (const field of fields) {
    if (field.required === true || field.name in input || (field.advanced === true && !showAdvanced)) continue
    Reflect.deleteProperty(options, field.name)
  }
}

function nextOrFinish (house: House, flow: SchemaFlowState, step: FormStep): StepOutcome {
  const next = typeof step.next === 'function' ? step.next(flow.options) : step.next
  if (next === undefined) return { type: 'create_entry', options: flow.options }
  return show(house, flow, next)
}

/** _show_next_step: a menu, or the form with the options so far (and the refused input) as suggested values. */
function show (house: House, flow: SchemaFlowState, stepId: string, error?: SchemaFlowError, input?: Record<string, unknown>): StepOutcome {
  const step = stepOf(flow, stepId)
  if ('menu' in step) {
    flow.shown = { type: 'menu', step_id: stepId, menu_options: step.menu }
    return { type: 'menu', step_id: stepId, menu_options: step.menu }
  }
  const fields = fieldsOf(house, flow, step)
  if (fields === undefined) return nextOrFinish(house, flow, step)
  const suggested = step.suggest === false ? {} : { ...flow.options }
  if (input !== undefined) mergeOptions(suggested, input, fields, flow.showAdvanced)
  flow.shown = { type: 'form', step_id: stepId, fields }
  return {
    type: 'form',
    step_id: stepId,
    data_schema: serializeFields(fields, suggested, flow.showAdvanced),
    errors: error === undefined ? null : { base: error.message },
    last_step: typeof step.next === 'function' ? null : step.next === undefined,
    preview: step.preview ?? null
  }
}
