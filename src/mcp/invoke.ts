import { INTERNAL_ERROR_CODE, isHomeAssistantError, isUserError, type UserErrorCode } from '../errors.ts'
import { isEntityId } from '../home/entities.ts'
import { fitToCap, RESPONSE_CAP_BYTES } from '../shape.ts'
import type { RawToolResult, ToolContext } from './define-tool.ts'
import type { LoadedTool } from './registry.ts'

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
  code: UserErrorCode | typeof INTERNAL_ERROR_CODE | `HAMCP_HA_${string}` | 'HAMCP_SUPERVISOR_UNAVAILABLE'
  message: string
  hint?: string
}

export function errorResult (code: ToolErrorData['code'], message: string, hint?: string): ToolCallResult {
  const text = `${message}${hint ? `\nHint: ${hint}` : ''}\nCode: ${code}`
  const error: ToolErrorData = { code, message, ...(hint ? { hint } : {}) }
  return { content: [{ type: 'text', text }], structuredContent: { error }, isError: true }
}

/** The entity ids a call's arguments name (any case), which its error message may echo back. */
function sentIds (rawArgs: unknown): Set<string> {
  const sent = new Set<string>()
  const collect = (value: unknown): void => {
    if (typeof value === 'string' && isEntityId(value.toLowerCase())) sent.add(value)
    else if (Array.isArray(value)) value.forEach(collect)
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(collect)
  }
  collect(rawArgs)
  return sent
}

function scrubError (ctx: Pick<ToolContext, 'home'>, text: string, rawArgs: unknown): string {
  return ctx.home.scrub(text, sentIds(rawArgs))
}

function describeIssues (issues: ReadonlyArray<{ path: PropertyKey[], message: string }>): string {
  return issues.slice(0, 5).map(issue => {
    const where = issue.path.length ? issue.path.map(String).join('.') : 'arguments'
    return `${where}: ${issue.message}`
  }).join('; ')
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
  if (scrubbed !== text) {
    text = scrubbed
    shaped = JSON.parse(scrubbed) as unknown
  }
  const structured = shaped !== null && typeof shaped === 'object' && !Array.isArray(shaped)
    ? shaped as Record<string, unknown>
    : { value: shaped }
  return { content: [{ type: 'text', text }], structuredContent: structured }
}

/**
 * Runs one tool call: argument validation, the Home Assistant precondition, the handler, shaping.
 * Failures a caller can fix become `isError` results with a hint; anything else is logged in full
 * and reported as a generic internal error, so no stack trace ever reaches the client.
 */
export async function invokeTool (tool: LoadedTool, rawArgs: unknown, ctx: ToolContext, report?: (r: CallReport) => void): Promise<ToolCallResult> {
  const started = performance.now()
  const name = tool.definition.name
  let result: ToolCallResult
  ctx.log.debug({ tool: name, identity: ctx.identity.name }, 'tool call')
  if (ctx.log.level === 'trace') ctx.log.trace({ tool: name, args: JSON.stringify(rawArgs ?? {}).slice(0, 300) }, 'tool arguments')
  const parsed = tool.definition.input.safeParse(rawArgs ?? {})
  if (!parsed.success) {
    result = errorResult('HAMCP_INVALID_ARGUMENT', `Invalid arguments for ${name}: ${describeIssues(parsed.error.issues)}.`, 'Fix the arguments to match the tool\'s input schema and call again.')
  } else {
    try {
      if (tool.definition.needsHomeAssistant !== false) await ctx.home.ready()
      const value = await tool.definition.handler(ctx, parsed.data)
      if (isRaw(value)) {
        const { raw: _raw, ...rest } = value
        result = { ...rest, content: value.content.map(c => c.type === 'text' ? { type: 'text', text: ctx.home.scrub(c.text) } : c) }
      } else {
        result = jsonResult(value, ctx)
      }
    } catch (err) {
      if (isUserError(err)) {
        result = errorResult(err.code, scrubError(ctx, err.message, rawArgs), err.hint && scrubError(ctx, err.hint, rawArgs))
      } else if (isHomeAssistantError(err)) {
        result = errorResult(err.code as ToolErrorData['code'], scrubError(ctx, err.message, rawArgs))
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
