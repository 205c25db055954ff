import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { z } from 'zod'
import { describeProblem, readSafetyList, STRICTEST, WRITE_OPTIONS, type OptionProblem } from './option-problems.ts'
import { DEFAULT_OPTIONS, LOG_LEVELS, optionsSchema, SAFETY_LISTS, type LogLevel, type Options, type SafetyList } from './options.ts'
import { DEFAULT_REQUEST_LIMITS, type RequestLimits } from './request-limits.ts'

export interface HomeAssistantTarget {
  /** `dev` talks to HA_URL with HA_TOKEN; `addon` goes through the Supervisor proxy. */
  mode: 'dev' | 'addon' | 'none'
  /** Base URL that `/api/...` is appended to (`http://host:8123` or `http://supervisor/core`). */
  baseUrl: string
  token: string
}

export interface Config {
  options: Options
  /** Problems met while reading options.json and the environment, one log line each; logged once the logger exists. */
  optionErrors: string[]
  /** What options.json held that could not be used as written, and what was done instead (the status page lists them). */
  optionProblems: OptionProblem[]
  /** The safety lists that could not be read: while any is, allow_write and allow_config_write are off. */
  writesBlockedBy: string[]
  logLevel: LogLevel
  dataDir: string
  mcpPort: number
  ingressPort: number
  host: string
  homeAssistant: HomeAssistantTarget
  supervisor: { url: string, token: string | undefined }
  /** MCP_API_TOKEN: a development fallback for the primary token. */
  envApiToken: string | undefined
  /** True when running as an add-on (SUPERVISOR_TOKEN set): ingress is restricted to the Supervisor. */
  addonMode: boolean
  version: string
  /** RATE_LIMIT_PER_TOKEN, RATE_LIMIT_PER_ADDRESS, RATE_LIMIT_INGRESS_PER_ADDRESS: request limits for development and the bench. */
  requestLimits: Partial<RequestLimits>
  /** HEALTH_DEGRADED_AFTER_S: shortens the 5 minutes /health waits before answering 503 (tests, impatient setups). */
  healthDegradedAfterMs: number | undefined
}

export type Env = Record<string, string | undefined>

const portSchema = z.coerce.number().int().min(0).max(65535)

function readPort (env: Env, name: string, fallback: number, errors: string[]): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const parsed = portSchema.safeParse(raw)
  if (parsed.success) return parsed.data
  errors.push(`${name}=${raw} is not a port number; using ${fallback}`)
  return fallback
}

const REQUEST_LIMIT_ENV: Record<keyof RequestLimits, string> = {
  perToken: 'RATE_LIMIT_PER_TOKEN',
  perAddress: 'RATE_LIMIT_PER_ADDRESS',
  ingressPerAddress: 'RATE_LIMIT_INGRESS_PER_ADDRESS'
}

/** Requests per minute, 0 for off; a value that is not a count is reported and the default kept. */
function readRequestLimits (env: Env, errors: string[]): Partial<RequestLimits> {
  const limits: Partial<RequestLimits> = {}
  for (const [key, name] of Object.entries(REQUEST_LIMIT_ENV) as Array<[keyof RequestLimits, string]>) {
    const raw = env[name]
    if (raw === undefined || raw === '') continue
    if (/^\d{1,9}$/.test(raw)) limits[key] = Number(raw)
    else errors.push(`${name}=${raw} is not a number of requests per minute; using ${DEFAULT_REQUEST_LIMITS[key]}`)
  }
  return limits
}

function readSeconds (env: Env, name: string, errors: string[]): number | undefined {
  const raw = env[name]
  if (raw === undefined || raw === '') return undefined
  const seconds = Number(raw)
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000
  errors.push(`${name}=${raw} is not a number of seconds; ignored`)
  return undefined
}

/**
 * Reads and validates options.json. Never throws: a file that cannot be read gives the defaults, a
 * bad option its default, a bad item of a safety list is dropped alone, and a safety list that cannot
 * be read at all turns writes off (src/option-problems.ts). Each problem says what was done.
 */
export function readOptions (file: string): { options: Options, problems: OptionProblem[] } {
  let raw: string
  try {
    raw = readFileSync(file, 'utf8')
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    const problems: OptionProblem[] = code === 'ENOENT' ? [] : [{ option: null, reason: `cannot read ${file}: ${code ?? String(err)}`, effect: 'default_used' }]
    return { options: optionsSchema.parse({}), problems }
  }
  let json: unknown
  try {
    json = JSON.parse(raw)
  } catch (err) {
    return { options: optionsSchema.parse({}), problems: [{ option: null, reason: `${file} is not valid JSON (${(err as Error).message})`, effect: 'default_used' }] }
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    return { options: optionsSchema.parse({}), problems: [{ option: null, reason: `${file} must hold a JSON object`, effect: 'default_used' }] }
  }
  const problems: OptionProblem[] = []
  const repaired: Record<string, unknown> = { ...json }
  for (const option of Object.keys(SAFETY_LISTS) as SafetyList[]) {
    if (!(option in repaired)) continue
    const list = readSafetyList(option, repaired[option])
    problems.push(...list.problems)
    if (list.items === undefined) delete repaired[option]
    else repaired[option] = list.items
  }
  const parsed = optionsSchema.safeParse(repaired)
  if (parsed.success) return { options: parsed.data, problems }
  // Keep every valid key and fall back to the default only for the broken ones.
  const protections: Partial<Options> = {}
  for (const issue of parsed.error.issues) {
    const key = String(issue.path[0] ?? '')
    if (!(key in DEFAULT_OPTIONS)) continue
    delete repaired[key]
    // A protection that cannot be read takes its strictest value: it fails closed too.
    if (key in STRICTEST) {
      const strictest = STRICTEST[key as keyof typeof STRICTEST]
      Object.assign(protections, { [key]: strictest })
      problems.push({ option: key, reason: issue.message, effect: 'strictest_used', used: String(strictest) })
    } else {
      problems.push({ option: key, reason: issue.message, effect: 'default_used' })
    }
  }
  const second = optionsSchema.safeParse(repaired)
  return { options: { ...(second.success ? second.data : optionsSchema.parse({})), ...protections }, problems }
}

function packageVersion (): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: string }
    return pkg.version ?? '0.0.0'
  } catch {
    // Built, this module is bundled into dist/app/ (scripts/build.ts), one level deeper than src/config.ts
    try {
      const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string }
      return pkg.version ?? '0.0.0'
    } catch {
      return '0.0.0'
    }
  }
}

export const VERSION = packageVersion()

function trimSlash (url: string): string {
  return url.replace(/\/+$/, '')
}

/** Builds the whole configuration from the environment and DATA_DIR/options.json. */
export function loadConfig (env: Env = process.env, overrides: Partial<Options> = {}): Config {
  const errors: string[] = []
  const addonMode = Boolean(env.SUPERVISOR_TOKEN)
  const dataDir = resolve(env.DATA_DIR ?? (addonMode ? '/data' : './data'))
  const read = readOptions(join(dataDir, 'options.json'))
  errors.push(...read.problems.map(describeProblem))
  const options: Options = { ...read.options, ...overrides }
  // A list the caller replaced (the demo's --options file) no longer holds writes off.
  const writesBlockedBy = read.problems.filter(p => p.effect === 'writes_off' && p.option !== null && !(p.option in overrides)).map(p => p.option as string)
  if (writesBlockedBy.length > 0) for (const option of WRITE_OPTIONS) options[option] = false

  let logLevel = options.log_level
  const envLevel = env.LOG_LEVEL?.toLowerCase()
  if (envLevel) {
    if ((LOG_LEVELS as readonly string[]).includes(envLevel)) logLevel = envLevel as LogLevel
    else errors.push(`LOG_LEVEL=${env.LOG_LEVEL} is not one of ${LOG_LEVELS.join(', ')}; using ${logLevel}`)
  }

  const supervisorUrl = trimSlash(env.SUPERVISOR_URL || 'http://supervisor')
  let homeAssistant: HomeAssistantTarget
  if (env.HA_URL && env.HA_TOKEN) {
    homeAssistant = { mode: 'dev', baseUrl: trimSlash(env.HA_URL), token: env.HA_TOKEN }
  } else if (env.SUPERVISOR_TOKEN) {
    homeAssistant = { mode: 'addon', baseUrl: `${supervisorUrl}/core`, token: env.SUPERVISOR_TOKEN }
  } else {
    if (env.HA_URL || env.HA_TOKEN) errors.push('HA_URL and HA_TOKEN must be set together')
    homeAssistant = { mode: 'none', baseUrl: '', token: '' }
  }

  return {
    options,
    optionErrors: errors,
    optionProblems: read.problems,
    writesBlockedBy,
    logLevel,
    dataDir,
    mcpPort: readPort(env, 'MCP_PORT', 9583, errors),
    ingressPort: readPort(env, 'INGRESS_PORT', 9584, errors),
    host: env.HOST || '0.0.0.0',
    homeAssistant,
    supervisor: { url: supervisorUrl, token: env.SUPERVISOR_TOKEN || undefined },
    envApiToken: env.MCP_API_TOKEN || undefined,
    addonMode,
    version: VERSION,
    requestLimits: readRequestLimits(env, errors),
    healthDegradedAfterMs: readSeconds(env, 'HEALTH_DEGRADED_AFTER_S', errors)
  }
}
