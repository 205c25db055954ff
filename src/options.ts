import { z } from 'zod'
import { globProblem } from './globs.ts'

/** Home Assistant's log levels, lowest to highest. */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'notice', 'warning', 'error', 'fatal'] as const
export type LogLevel = typeof LOG_LEVELS[number]

export const DEFAULT_SERVICE_DENYLIST = [
  'homeassistant.stop',
  'homeassistant.restart',
  'hassio.*',
  'shell_command.*',
  'python_script.*',
  'recorder.purge*',
  'backup.*'
]

export const DEFAULT_CONFIRM_DOMAINS = ['lock', 'alarm_control_panel']

/**
 * Who gives a confirmation: `assistant` (the confirm token goes back to the client, or the client asks
 * its user by elicitation or a 2026-07-28 round) or `owner` (only the owner's approval on the status
 * page or a Home Assistant notification lets the call run; src/policy/approvals.ts).
 */
export const CONFIRM_WITH = ['assistant', 'owner'] as const
export type ConfirmWith = typeof CONFIRM_WITH[number]

/**
 * Which tools tools/list shows (src/mcp/runtime/registry.ts): `core` the everyday tools, plus ha_search_tools
 * and ha_call_tool when the token may call more; `full` every tool the token may call; `search` the two
 * meta tools and at most three everyday tools, for small local models.
 */
export const TOOL_LISTS = ['core', 'full', 'search'] as const
export type ToolList = typeof TOOL_LISTS[number]

/**
 * The add-on options, as stored by the Supervisor in options.json.
 * Names and defaults follow mcp-ha 1.5 so a user can switch add-ons without re-teaching anything.
 */
export const DEFAULT_OPTIONS = {
  log_level: 'info' as LogLevel,
  api_token: '',
  allow_write: false,
  allow_config_write: false,
  allow_camera: false,
  allow_addon_control: false,
  enable_sessions: false,
  filter_reads: false,
  entity_allowlist: [] as string[],
  entity_denylist: [] as string[],
  service_denylist: DEFAULT_SERVICE_DENYLIST,
  confirm_domains: DEFAULT_CONFIRM_DOMAINS,
  confirm_with: 'assistant' as ConfirmWith,
  public_url: '',
  tool_list: 'core' as ToolList
}

/** Why a public_url value cannot be used, or undefined: empty, or an http(s) origin (a trailing slash is fine). */
export function publicUrlProblem (value: string): string | undefined {
  if (value === '') return undefined
  let parsed: URL
  try {
    parsed = new URL(value)
  } catch {
    return 'not a URL; expected something like https://mcp.example.com or http://192.168.1.20:9583'
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'must start with http:// or https://'
  if (parsed.username !== '' || parsed.password !== '') return 'must not contain a user name or password'
  if (parsed.pathname !== '/' || parsed.search !== '' || parsed.hash !== '' || /[?#]/.test(value)) return 'must be an origin only (scheme, host and port), without a path'
  return undefined
}

const publicUrl = z.string().trim().superRefine((value, ctx) => {
  const problem = publicUrlProblem(value)
  if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem })
})

/** An id's own characters (Home Assistant's ids hold only `[a-z0-9_.]`) and a glob's (src/globs.ts). */
const GLOB_CHARACTERS = /^[a-z0-9_.*?[\]{},!^-]*$/
/** One entity or service glob, as the options and a named token's own entity lists take it: one schema for both. */
export const globItem = z.string({ error: 'not text' }).trim().toLowerCase()
  .min(1, 'an empty pattern')
  .max(255, 'longer than 255 characters')
  .regex(GLOB_CHARACTERS, 'holds a character no id has: use a-z, 0-9, _ and . with the glob characters * ? [ ] { } ,')
  .superRefine((pattern, ctx) => {
    const problem = globProblem(pattern)
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem })
  })
/** One domain of confirm_domains. */
export const domainItem = z.string({ error: 'not text' }).trim().toLowerCase().regex(/^[a-z0-9_]+$/, 'not a domain such as lock')
/** More items than this and a list is not read at all (see SAFETY_LISTS). */
export const MAX_LIST_ITEMS = 500
/** A list of globs, as the options and a named token's own entity lists take it. */
export const globList = z.array(globItem).max(MAX_LIST_ITEMS)

/**
 * The lists that keep writes safe, with the schema of one item. A bad item is dropped alone; a list
 * that cannot be read at all turns writes off (src/option-problems.ts), because its default (an
 * empty denylist, an empty allowlist) would be more permissive than what the owner wrote.
 */
export const SAFETY_LISTS = {
  entity_allowlist: globItem,
  entity_denylist: globItem,
  service_denylist: globItem,
  confirm_domains: domainItem
} as const
export type SafetyList = keyof typeof SAFETY_LISTS

export const optionsSchema = z.object({
  log_level: z.enum(LOG_LEVELS).default(DEFAULT_OPTIONS.log_level),
  api_token: z.string().default(''),
  allow_write: z.boolean().default(false),
  allow_config_write: z.boolean().default(false),
  allow_camera: z.boolean().default(false),
  allow_addon_control: z.boolean().default(false),
  enable_sessions: z.boolean().default(false),
  filter_reads: z.boolean().default(false),
  entity_allowlist: globList.default([]),
  entity_denylist: globList.default([]),
  service_denylist: globList.default(DEFAULT_SERVICE_DENYLIST),
  confirm_domains: z.array(domainItem).max(MAX_LIST_ITEMS).default(DEFAULT_CONFIRM_DOMAINS),
  confirm_with: z.enum(CONFIRM_WITH).default(DEFAULT_OPTIONS.confirm_with),
  public_url: publicUrl.default(''),
  tool_list: z.enum(TOOL_LISTS).default(DEFAULT_OPTIONS.tool_list)
})

export type Options = z.infer<typeof optionsSchema>
export type OptionName = keyof Options
