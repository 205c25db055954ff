import { z } from 'zod'
import { bounded, freeFormArg } from './args.ts'
import { nameArg } from '../../src/policy/input-checks.ts'

/**
 * Argument schemas shared by the automation and script config tools, described once and tersely:
 * tools/list is paid for in every conversation.
 */
const record = () => freeFormArg()

export const aliasArg = () => nameArg(200).describe('Alias.')

export const descriptionArg = () => z.string()

export const modeArg = () => z.enum(['single', 'restart', 'queued', 'parallel']).describe('Mode.')

/**
 * Triggers, actions, sequence: Home Assistant validates every item, so the schema stays small. The
 * items are typed all the same: Home Assistant's own MCP client drops every tool when one array has no
 * `items` type.
 */
export const blocksArg = () => bounded(z.array(record()))

/**
 * Conditions: objects, or the template shorthand ("{{ ... }}"). Home Assistant takes a string only when it
 * is a dynamic template (cv.dynamic_template: `{{`, `{%` or `{#` in it), so any other string is refused
 * here rather than previewed and then refused on save.
 */
export const conditionsArg = () => bounded(z.array(z.union([
  record(),
  z.string().refine(text => /\{\{|\{%|\{#/.test(text), 'a condition written as text must be a template, e.g. "{{ is_state(\'sun.sun\', \'below_horizon\') }}"; otherwise give an object such as {"condition": "state", ...}')
])))

export const variablesArg = () => record()

export const maxExceededArg = () => z.string().regex(/^[a-z]{4,8}$/)

/** A record in the listing (a nested object schema costs ~170 bytes per tool); the shape is checked here. */
export const traceArg = () => record().refine(
  trace => Object.keys(trace).every(key => key === 'stored_traces') && Number.isInteger(trace.stored_traces) && (trace.stored_traces as number) >= 1 && (trace.stored_traces as number) <= 100,
  'trace is {"stored_traces": n} with n from 1 to 100'
)

export const blueprintInputsArg = () => record().describe('Blueprint inputs.')
