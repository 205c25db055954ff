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
    const current = raw.default !== undefined ? raw.default : description.suggested_value
    const type = typeof raw.type === 'string' ? raw.type : isRecord(raw.selector) ? Object.keys(raw.selector)[0] ?? 'value' : 'value'
    const selector = isRecord(raw.selector) ? raw.selector : {}
    const password = isRecord(selector.text) && selector.text.type === 'password'
    fields.push({ name: raw.name, type, required: raw.required === true, ...(current === undefined ? {} : { current }), ...(raw.options !== undefined ? { choices: raw.options } : {}), ...(password || SECRET_NAME.test(raw.name) ? { secret: true } : {}) })
  }
  return fields
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
