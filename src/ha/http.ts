import { HaHttpFailedError, HaNotConnectedError, HaTimeoutError, SupervisorUnavailableError } from '../errors.ts'
import type { AppLogger } from '../logger.ts'

export interface HttpResult {
  status: number
  contentType: string
  body: Buffer
}

export interface HttpClientOptions {
  baseUrl: string
  token: string | undefined
  log: AppLogger
  timeoutMs?: number
  /** Upper bound on a body we are willing to hold in memory (camera snapshots). */
  maxBytes?: number
}

/** A small fetch wrapper: bearer auth, a timeout on every call, bounded bodies, no secret in errors. */
export class HttpClient {
  readonly baseUrl: string
  #token: string | undefined
  #log: AppLogger
  #timeoutMs: number
  #maxBytes: number

  constructor (options: HttpClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '')
    this.#token = options.token
    this.#log = options.log
    this.#timeoutMs = options.timeoutMs ?? 30_000
    this.#maxBytes = options.maxBytes ?? 8 * 1024 * 1024
  }

  get configured (): boolean {
    return Boolean(this.baseUrl && this.#token)
  }

  async request (method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<HttpResult> {
    if (!this.configured) throw new HaNotConnectedError(': no Home Assistant address configured')
    const url = `${this.baseUrl}${path}`
    this.#log.debug({ http: `${method} ${path}` }, 'http call')
    let response: Response
    try {
      response = await fetch(url, {
        method,
        headers: {
          authorization: `Bearer ${this.#token ?? ''}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' })
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.#timeoutMs)
      })
    } catch (err) {
      const name = (err as Error).name
      if (name === 'TimeoutError' || name === 'AbortError') throw new HaTimeoutError(`${method} ${path}`, this.#timeoutMs, err)
      throw new HaNotConnectedError(` (${method} ${path}: ${(err as Error).message})`, err)
    }
    const declared = Number(response.headers.get('content-length') ?? 0)
    if (declared > this.#maxBytes) {
      await response.body?.cancel()
      throw new HaHttpFailedError(`${method} ${path}`, response.status, `answer too large (${declared} bytes)`)
    }
    const buffer = Buffer.from(await response.arrayBuffer())
    if (buffer.length > this.#maxBytes) throw new HaHttpFailedError(`${method} ${path}`, response.status, `answer too large (${buffer.length} bytes)`)
    return { status: response.status, contentType: response.headers.get('content-type') ?? '', body: buffer }
  }

  /**
   * The first `maxBytes` of an answer, the rest never read: Home Assistant may render megabytes
   * (a template over every state) of which a caller shows a few KB. `length` is the declared size
   * when Home Assistant sent one. A non-2xx answer fails with HA's own message, like json().
   */
  async prefix (method: 'GET' | 'POST', path: string, body: unknown, maxBytes: number): Promise<{ contentType: string, body: Buffer, complete: boolean, length?: number }> {
    if (!this.configured) throw new HaNotConnectedError(': no Home Assistant address configured')
    this.#log.debug({ http: `${method} ${path}` }, 'http call')
    let response: Response
    const signal = AbortSignal.timeout(this.#timeoutMs)
    try {
      response = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${this.#token ?? ''}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal
      })
    } catch (err) {
      const name = (err as Error).name
      if (name === 'TimeoutError' || name === 'AbortError') throw new HaTimeoutError(`${method} ${path}`, this.#timeoutMs, err)
      throw new HaNotConnectedError(` (${method} ${path}: ${(err as Error).message})`, err)
    }
    const chunks: Buffer[] = []
    let size = 0
    let complete = true
    const reader = response.body?.getReader()
    try {
      for (;;) {
        if (reader === undefined) break
        const { done, value } = await reader.read()
        if (done) break
        chunks.push(Buffer.from(value))
        size += value.byteLength
        if (size > maxBytes) { complete = false; break }
      }
    } catch (err) {
      const name = (err as Error).name
      if (name === 'TimeoutError' || name === 'AbortError') throw new HaTimeoutError(`${method} ${path}`, this.#timeoutMs, err)
      throw new HaNotConnectedError(` (${method} ${path}: ${(err as Error).message})`, err)
    } finally {
      if (!complete) await reader?.cancel().catch(() => {})
    }
    const buffer = Buffer.concat(chunks).subarray(0, maxBytes)
    if (response.status < 200 || response.status >= 300) throw new HaHttpFailedError(`${method} ${path}`, response.status, errorMessage(buffer.toString('utf8')))
    const declared = Number(response.headers.get('content-length') ?? Number.NaN)
    return { contentType: response.headers.get('content-type') ?? '', body: buffer, complete, ...(Number.isFinite(declared) ? { length: declared } : {}) }
  }

  /** JSON call that fails with HA's own message on a non-2xx answer. */
  async json<T = unknown>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
    const result = await this.request(method, path, body)
    const text = result.body.toString('utf8')
    if (result.status < 200 || result.status >= 300) {
      throw new HaHttpFailedError(`${method} ${path}`, result.status, errorMessage(text))
    }
    if (text === '') return undefined as T
    try {
      return JSON.parse(text) as T
    } catch {
      if (result.contentType.includes('json')) throw new HaHttpFailedError(`${method} ${path}`, result.status, 'invalid JSON')
      return text as T
    }
  }
}

function errorMessage (text: string): string {
  try {
    const parsed = JSON.parse(text) as { message?: unknown }
    if (typeof parsed.message === 'string') return parsed.message
  } catch {}
  return text.slice(0, 300) || 'no message'
}

/** The Supervisor API with its `{result, data}` envelope. */
export class SupervisorClient {
  #http: HttpClient
  constructor (http: HttpClient) {
    this.#http = http
  }

  get available (): boolean {
    return this.#http.configured
  }

  async call<T = unknown>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    if (!this.available) throw new SupervisorUnavailableError('not running as a Home Assistant add-on (no SUPERVISOR_TOKEN)')
    const result = await this.#http.request(method, path, body)
    const text = result.body.toString('utf8')
    let envelope: { result?: unknown, data?: unknown, message?: unknown } | undefined
    try {
      envelope = JSON.parse(text) as typeof envelope
    } catch {}
    if (result.status >= 200 && result.status < 300 && envelope?.result === 'ok') return (envelope.data ?? {}) as T
    const message = typeof envelope?.message === 'string' ? envelope.message : text.slice(0, 200) || `HTTP ${result.status}`
    throw new HaHttpFailedError(`${method} ${path}`, result.status, message)
  }
}
