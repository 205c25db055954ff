import { createHash } from 'node:crypto'
import { HaHttpFailedError, UserError } from '../../src/errors.ts'
import { notPermitted } from '../../src/ha/rights.ts'
import type { ToolContext } from '../../src/mcp/runtime/define-tool.ts'
import { isRecord } from '../../src/shape.ts'

/**
 * Home Assistant's data entry flows over REST, as its own frontend walks them (src/data/options_flow.ts,
 * config_flow.ts, data_entry_flow.ts; core helpers/data_entry_flow.py): a step is a `form` (fields, with
 * the current values as `default` or `description.suggested_value`), a `menu`, an `external` step (a
 * browser page), a `progress` step, `create_entry` or `abort`.
 */
export interface FlowStep {
  type: string
  flow_id: string
  step_id?: string
  data_schema?: unknown[]
  errors?: Record<string, string> | null
  reason?: string
  url?: string
  title?: string
  result?: unknown
  /** A menu's choices: a list of step ids, or step ids with their labels. */
  menu_options?: string[] | Record<string, string>
  /** Whether a form is the flow's last (schema flows say so when their next step is fixed; null: unknown). */
  last_step?: boolean | null
}

export interface FormField { name: string, type: string, required: boolean, current?: unknown, choices?: unknown, secret?: boolean }

/** A field whose value is a credential: a password selector, or a name that says so. Never shown. */
const SECRET_NAME = /pass|secret|token|api_?key|pin\b|code/i
const MASK = '********'

/** The fields as an answer shows them: a credential's current value masked. */
export const shownFields = (fields: FormField[]): FormField[] =>
  fields.map(f => f.secret === true && f.current !== undefined ? { ...f, current: MASK } : f)

/** One value as a fact ha_undo and a confirmation compare (a credential by its hash, so a change still shows). */
export function factValue (fields: FormField[], name: string, value: unknown): string {
  const json = JSON.stringify(value ?? null)
  return fields.some(f => f.name === name && f.secret === true) ? `hash ${createHash('sha256').update(json).digest('hex').slice(0, 12)}` : json
}

/** One value as an answer shows it. */
export const shownValue = (fields: FormField[], name: string, value: unknown): unknown =>
  fields.some(f => f.name === name && f.secret === true) && value !== undefined && value !== null ? MASK : value

type Ctx = Pick<ToolContext, 'ha'>

/** HA's `{message}` or `{errors}` of a refused flow request, as text. */
function refusal (body: Buffer): { message: string, errors?: Record<string, string> } {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as unknown
    if (isRecord(parsed) && isRecord(parsed.errors)) return { message: Object.entries(parsed.errors).map(([k, v]) => `${k}: ${String(v)}`).join('; '), errors: parsed.errors as Record<string, string> }
    if (isRecord(parsed) && typeof parsed.message === 'string') return { message: parsed.message }
  } catch {}
  return { message: body.toString('utf8').slice(0, 200) }
}

/** One flow request; 404 is the caller's unknown id, 400 a form's own validation, 401 a rights refusal. */
export async function flowRequest (ctx: Ctx, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<FlowStep> {
  const answer = await ctx.ha.rest.request(method, path, body)
  if (answer.status === 200) {
    const parsed = JSON.parse(answer.body.toString('utf8')) as unknown
    return (isRecord(parsed) ? parsed : {}) as unknown as FlowStep
  }
  const { message, errors } = refusal(answer.body)
  if (answer.status === 401) throw notPermitted(`${method} ${path}`, ctx.ha.mode, ctx.ha.status().admin)
  if (answer.status === 404) throw new UserError('HAMCP_NOT_FOUND', `Home Assistant knows no such flow or entry (${message}).`, 'ha_list_integrations gives the current entry_id and flow_id values.')
  if (answer.status === 400) throw new UserError('HAMCP_INVALID_ARGUMENT', `Home Assistant refused the values: ${message}.`, 'Fix the named fields (the dry run shows the form) and call again.', errors ? { errors } : undefined)
  throw new HaHttpFailedError(`${method} ${path}`, answer.status, message)
}

export const optionsFlowPath = (flowId?: string): string => `/api/config/config_entries/options/flow${flowId === undefined ? '' : `/${flowId}`}`
export const configFlowPath = (flowId: string): string => `/api/config/config_entries/flow/${flowId}`

/** A form's fields as voluptuous_serialize writes them, each with its current value. */
export function formFields (step: FlowStep): FormField[] {
  const fields: FormField[] = []
  for (const raw of step.data_schema ?? []) {
    if (!isRecord(raw) || typeof raw.name !== 'string') continue
    const description = isRecord(raw.description) ? raw.description : {}
    // As the frontend fills a form (src/components/ha-form/compute-initial-ha-form-data.ts): a suggested
    // value that is set wins over the default; a null one is an unset optional field, never sent back.
    const suggested = description.suggested_value
    const current = suggested !== undefined && suggested !== null ? suggested : raw.default
    const type = typeof raw.type === 'string' ? raw.type : isRecord(raw.selector) ? Object.keys(raw.selector)[0] ?? 'value' : 'value'
    const selector = isRecord(raw.selector) ? raw.selector : {}
    const password = isRecord(selector.text) && selector.text.type === 'password'
    const choices = raw.options ?? selectChoices(selector)
    fields.push({ name: raw.name, type, required: raw.required === true, ...(current === undefined ? {} : { current }), ...(choices !== undefined ? { choices } : {}), ...(password || SECRET_NAME.test(raw.name) ? { secret: true } : {}) })
  }
  return fields
}

/** A select selector's values (its options are strings or `{value, label}`), so the model sees what it may pick. */
function selectChoices (selector: Record<string, unknown>): unknown[] | undefined {
  const options = isRecord(selector.select) ? selector.select.options : undefined
  return Array.isArray(options) ? options.map(option => isRecord(option) ? option.value : option) : undefined
}

/** The form's current values, by field name. */
export const currentValues = (fields: FormField[]): Record<string, unknown> =>
  Object.fromEntries(fields.filter(f => f.current !== undefined).map(f => [f.name, f.current]))

/** Aborts a flow the tool opened and did not finish; a flow already gone is fine. */
export async function abortFlow (ctx: Ctx, path: string): Promise<void> {
  await ctx.ha.rest.request('DELETE', path).catch(() => undefined)
}

/**
 * What the owner must do in Home Assistant when a step cannot be answered through the add-on: a browser
 * page (OAuth), a progress step, a menu, or a form asking for something only the owner has (a code).
 */
export function ownerStep (step: FlowStep, what: string, missing: string[] = []): UserError | undefined {
  const where = `Settings > Devices & services in Home Assistant, ${what}`
  if (step.type === 'external') return new UserError('HAMCP_NOT_SUPPORTED', `${what} needs the owner to sign in on a web page (step ${step.step_id ?? ''}).`, `The owner finishes it in ${where}: it opens the sign-in page.`)
  if (step.type === 'progress') return new UserError('HAMCP_NOT_SUPPORTED', `${what} is waiting on a step in progress (${step.step_id ?? ''}).`, `The owner follows it in ${where}.`)
  if (step.type === 'menu') return new UserError('HAMCP_NOT_SUPPORTED', `${what} asks to pick from a menu (step ${step.step_id ?? ''}), which the add-on does not walk.`, `The owner finishes it in ${where}.`)
  if (step.type === 'form' && missing.length > 0) return new UserError('HAMCP_NOT_SUPPORTED', `${what} asks for ${missing.join(', ')} (step ${step.step_id ?? ''}).`, `Give ${missing.join(', ')} in options if the owner told you (a code printed on the device, a password), or the owner finishes it in ${where}.`)
  return undefined
}

/** A form's fields as a refusal names them, so the model can fix its call: name, type, required, choices. */
export const fieldList = (fields: FormField[]): Array<Pick<FormField, 'name' | 'type' | 'required' | 'choices'>> =>
  fields.map(({ name, type, required, choices }) => ({ name, type, required, ...(choices === undefined ? {} : { choices }) }))

/**
 * A step's validation errors (`{field: key}`, `base` for the form as a whole) as an argument error that
 * names the field, Home Assistant's error key and the form's fields.
 */
export function formRefusal (what: string, errors: Record<string, string>, step: FlowStep, fields: FormField[]): UserError {
  const named = Object.entries(errors).map(([field, key]) => `${field}: ${key}`).join('; ')
  return new UserError(
    'HAMCP_INVALID_ARGUMENT',
    `Home Assistant refused ${what}: ${named} (step ${step.step_id ?? ''}).`,
    `Fix the named field ("base": the values together) and call again. Fields: ${fields.map(f => `${f.name}${f.required ? '*' : ''} (${f.type})`).join(', ')}.`,
    { errors, step: step.step_id ?? '', fields: fieldList(fields) }
  )
}

/** A menu's choices as step ids, whichever of HA's two shapes it has. */
export const menuOptions = (step: FlowStep): string[] =>
  Array.isArray(step.menu_options) ? step.menu_options.map(String) : isRecord(step.menu_options) ? Object.keys(step.menu_options) : []

/** One form a walk met: its step id and fields. */
export interface FormSeen { step: string, fields: FormField[] }

/** How a walk answers the steps of one flow. */
export interface FlowAnswers {
  /** What the flow is about, in messages: "the new threshold helper", "the options of Hue Bridge". */
  what: string
  /** A menu's choice among `options` (a helper's sub-type); undefined refuses the call, naming them. */
  menu?: (options: string[], step: FlowStep) => string | undefined
  /** The input for a form, from its fields. */
  form: (fields: FormField[], step: FlowStep) => Record<string, unknown>
  /** Stop before submitting this form (a dry run stops before the step that may create); the flow is then aborted. */
  stopAt?: (step: FlowStep, fields: FormField[]) => boolean
}

export interface WalkEnd {
  /** The step the walk ended on: create_entry, abort, or the form it stopped at. */
  step: FlowStep
  forms: FormSeen[]
}

/** A flow has a handful of steps; more means a loop the walk will not follow. */
const MAX_STEPS = 10

/**
 * The one walker of Home Assistant's data entry flows (config and options flows alike, core
 * data_entry_flow.py FlowManager.async_configure): a menu is answered with `{next_step_id}`, a form
 * with its input; a form shown again with `errors`, or a 400 `{errors}` (voluptuous, InvalidData),
 * becomes an argument error naming the field and the form. Ends on create_entry or abort; any other
 * step (a browser page, progress) is the owner's to finish. A flow that does not end in create_entry
 * or abort is aborted, so nothing is left open in Home Assistant.
 */
export async function walkFlow (ctx: Ctx, path: (flowId: string) => string, first: FlowStep, answers: FlowAnswers): Promise<WalkEnd> {
  const forms: FormSeen[] = []
  let step = first
  let finished = false
  try {
    for (let n = 0; n < MAX_STEPS; n++) {
      if (step.type === 'create_entry' || step.type === 'abort') { finished = true; return { step, forms } }
      if (step.type === 'menu') {
        const options = menuOptions(step)
        const choice = answers.menu?.(options, step)
        if (choice === undefined || !options.includes(choice)) {
          throw new UserError('HAMCP_INVALID_ARGUMENT', `${answers.what} asks which kind (step ${step.step_id ?? ''})${choice === undefined ? '' : `; "${choice}" is not one`}: ${options.join(', ')}.`, 'Pass the kind as options.kind.', { step: step.step_id ?? '', choices: options })
        }
        step = await flowRequest(ctx, 'POST', path(step.flow_id), { next_step_id: choice })
        continue
      }
      if (step.type !== 'form') throw ownerStep(step, answers.what) ?? new UserError('HAMCP_NOT_SUPPORTED', `${answers.what} went on to a step the add-on does not walk (${step.type}).`, 'The owner finishes it in Settings > Devices & services.')
      const fields = formFields(step)
      if (step.errors && Object.keys(step.errors).length > 0) throw formRefusal(answers.what, step.errors, step, fields)
      forms.push({ step: step.step_id ?? '', fields })
      if (answers.stopAt?.(step, fields) === true) return { step, forms }
      try {
        step = await flowRequest(ctx, 'POST', path(step.flow_id), answers.form(fields, step))
      } catch (err) {
        const errors = (err as UserError).details?.errors
        if (isRecord(errors)) throw formRefusal(answers.what, errors as Record<string, string>, step, fields)
        throw err
      }
    }
    throw new UserError('HAMCP_NOT_SUPPORTED', `${answers.what} asked more than ${MAX_STEPS} steps; the add-on stops there.`, 'The owner finishes it in Settings > Devices & services.')
  } finally {
    if (!finished) await abortFlow(ctx, path(step.flow_id))
  }
}

/** The values an entry's options flow shows now (its first form), the flow closed again. */
export async function readOptionValues (ctx: Ctx, entryId: string, advanced: boolean): Promise<{ step: FlowStep, fields: FormField[], values: Record<string, unknown> }> {
  const step = await flowRequest(ctx, 'POST', optionsFlowPath(), { handler: entryId, show_advanced_options: advanced })
  await abortFlow(ctx, optionsFlowPath(step.flow_id))
  const fields = formFields(step)
  return { step, fields, values: currentValues(fields) }
}
