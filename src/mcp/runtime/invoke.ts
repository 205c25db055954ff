import { within } from '../../clock.ts'
import { INTERNAL_ERROR_CODE, isHomeAssistantError, isUserError, type HomeAssistantErrorCode, type UserErrorCode } from '../../errors.ts'
import { isEntityId } from '../../home/entities.ts'
import { fitText, fitToCap, isRecord, RESPONSE_CAP_BYTES } from '../../shape.ts'
import { loggableArguments } from '../../logger.ts'
import { describeIssues, parseArguments } from './arguments.ts'
import type { RawToolResult, ToolContext } from './define-tool.ts'
import { argumentRefusal, type LoadedTool } from './registry.ts'
import { isRightsRefusal, notPermitted } from '../../ha/rights.ts'

export interface ToolCallResult {
  content: RawToolResult['content']
  structuredContent?: Record<string, unknown>
  isError?: boolean
  [key: string]: unknown
}

export interface CallReport {
  tool: string
  identity: string
  ok: boolean
  ms: number
}

function isRaw (value: unknown): value is RawToolResult {
  return value !== null && typeof value === 'object' && (value as RawToolResult).raw === true
}

/** What every error result carries in `structuredContent.error`; the text says the same for clients that read only text. */
export interface ToolErrorData {
  code: UserErrorCode | typeof INTERNAL_ERROR_CODE | HomeAssistantErrorCode
  message: string
  hint?: string
  details?: Record<string, unknown>
}

/**
 * What an error's message (said twice: in the text and in structuredContent) and its details (a
 * conflict's fresh preview) may take, so the whole answer stays under the cap; hints are ours, and short.
 */
const MESSAGE_MAX_BYTES = 3_500
const DETAILS_MAX_BYTES = 5_500

export function errorResult (code: ToolErrorData['code'], fullMessage: string, hint?: string, details?: Record<string, unknown>): ToolCallResult {
  const message = fitText(fullMessage, MESSAGE_MAX_BYTES)
  const text = `${message}${hint ? `\nHint: ${hint}` : ''}\nCode: ${code}`
  const fitted = details && fitToCap(details, DETAILS_MAX_BYTES) as Record<string, unknown>
  const error: ToolErrorData = { code, message, ...(hint ? { hint } : {}), ...(fitted ? { details: fitted } : {}) }
  return { content: [{ type: 'text', text }], structuredContent: { error }, isError: true }
}

/**
 * Home Assistant's MCP client gives up on a call after 10 s, session setup included, and its user gets
 * no answer at all. A read that Home Assistant is slow to serve (a week of logbook on a big home)
 * answers within this budget instead, with a hint to narrow it. Writes are never cut short: the
 * change may already be under way, and saying "failed" would be a lie.
 */
export const READ_BUDGET_MS = 8_000

/** The entity ids a call's arguments name (any case), which its error message may echo back. */
function sentIds (rawArgs: unknown): Set<string> {
  const sent = new Set<string>()
  // Iterative and capped: the arguments may be nested deeper than the stack allows.
  const stack: unknown[] = [rawArgs]
  for (let seen = 0; stack.length > 0 && seen < 20_000; seen++) {
    const value = stack.pop()
    if (typeof value === 'string' && isEntityId(value.toLowerCase())) sent.add(value)
    else if (value !== null && typeof value === 'object') stack.push(...(Array.isArray(value) ? value : Object.values(value)))
  }
  return sent
}

function scrubError (ctx: Pick<ToolContext, 'home'>, text: string, rawArgs: unknown): string {
  return ctx.home.scrub(text, sentIds(rawArgs))
}

/** Serializes an answer: capped, compact JSON, with hidden entities scrubbed when filter_reads is on. */
export function jsonResult (value: unknown, ctx: Pick<ToolContext, 'home'>): ToolCallResult {
  let shaped = value
  let text = JSON.stringify(value) ?? 'null'
  // Serialize once in the common case: only an answer that may be over the cap is measured and shaped.
  if (text.length * 3 > RESPONSE_CAP_BYTES && Buffer.byteLength(text, 'utf8') > RESPONSE_CAP_BYTES) {
    shaped = fitToCap(value)
    text = JSON.stringify(shaped)
  }
  const scrubbed = ctx.home.scrub(text)
  const changed = scrubbed !== text
  if (changed) {
    text = scrubbed
    shaped = JSON.parse(scrubbed) as unknown
  }
  const structured = isRecord(shaped) ? shaped : { value: shaped }
  return { content: [{ type: 'text', text }], structuredContent: structured }
}

/**
 * Runs one tool call: argument validation, the Home Assistant precondition, the handler, shaping.
 * Failures a caller can fix become `isError` results with a hint; anything else is logged in full
 * and reported as a generic internal error, so no stack trace ever reaches the client.
 */
export async function invokeTool (tool: LoadedTool, rawArgs: unknown, ctx: ToolContext, report?: (r: CallReport) => void, readBudgetMs = READ_BUDGET_MS): Promise<ToolCallResult> {
  const started = performance.now()
  const name = tool.definition.name
  let result: ToolCallResult
  const level = ctx.log.level
  if (level === 'debug' || level === 'trace') ctx.log.debug({ tool: name, identity: ctx.identity.name }, 'tool call')
  if (level === 'trace') ctx.log.trace({ tool: name, args: loggableArguments(rawArgs, 300) }, 'tool arguments')
  const { parsed, args } = parseArguments(tool.definition.input, rawArgs ?? {})
  const beyondLevel = parsed.success ? argumentRefusal(tool, parsed.data as Record<string, unknown>, ctx.identity) : undefined
  if (!parsed.success) {
    result = errorResult('HAMCP_INVALID_ARGUMENT', `Invalid arguments for ${name}: ${describeIssues(parsed.error.issues, tool.listing.inputSchema, args)}.`, 'Fix the arguments to match the tool\'s input schema and call again.')
  } else if (beyondLevel !== undefined) {
    result = errorResult('HAMCP_DENIED_LEVEL', beyondLevel, 'The owner sets a named token\'s level per category on the Tokens tab of the add-on\'s panel.')
  } else {
    try {
      const answer = async (): Promise<ToolCallResult> => {
        if (tool.definition.needsHomeAssistant !== false) await ctx.home.ready()
        const value = await tool.definition.handler({ ...ctx, tool: name }, parsed.data)
        if (!isRaw(value)) return jsonResult(value, ctx)
        const { raw: _raw, ...rest } = value
        return { ...rest, content: value.content.map(c => c.type === 'text' ? { type: 'text', text: ctx.home.scrub(c.text) } : c) }
      }
      const overBudget = (): ToolCallResult => {
        ctx.log.warning({ tool: name, budgetMs: readBudgetMs }, 'tool call over its time budget; answered with a timeout')
        return errorResult('HAMCP_HA_TIMEOUT', `${name} did not finish within ${readBudgetMs / 1000} s (Home Assistant's own MCP client gives up at 10 s).`, 'Ask for less: a shorter time window, one entity or area, a smaller limit.')
      }
      const bounded = tool.definition.kind === 'read' || tool.definition.kind === 'camera'
      // The budget's timer runs on the injected clock; past it the call is answered and its work left to finish unheard.
      result = bounded ? await within(ctx.clock, readBudgetMs, answer(), overBudget) : await answer()
    } catch (err) {
      if (isUserError(err)) {
        result = errorResult(err.code, scrubError(ctx, err.message, rawArgs), err.hint && scrubError(ctx, err.hint, rawArgs), err.details && JSON.parse(scrubError(ctx, JSON.stringify(err.details), rawArgs)) as Record<string, unknown>)
      } else if (isRightsRefusal(err)) {
        const refusal = notPermitted(`a command of ${name}`, ctx.ha.mode, ctx.ha.status().admin)
        result = errorResult(refusal.code, refusal.message, refusal.hint)
      } else if (isHomeAssistantError(err)) {
        result = errorResult(err.code, scrubError(ctx, err.message, rawArgs))
      } else {
        ctx.log.error({ tool: name, err }, 'tool failed')
        result = errorResult(INTERNAL_ERROR_CODE, `Internal error while running ${name}; the add-on log has the details.`)
      }
    }
  }
  const ms = performance.now() - started
  report?.({ tool: name, identity: ctx.identity.id, ok: result.isError !== true, ms })
  return result
}
