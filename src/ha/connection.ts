import { WebSocket as WsWebSocket } from 'ws'
import {
  createConnection, createLongLivedTokenAuth, ERR_INVALID_AUTH,
  type Connection, type MessageBase
} from 'home-assistant-js-websocket'
import { HaCommandFailedError, HaNotConnectedError, HaTimeoutError } from '../errors.ts'
import { every, realClock, within, type Clock } from '../clock.ts'
import type { AppLogger } from '../logger.ts'
import { exponentialDelay } from '../retry-delay.ts'

// home-assistant-js-websocket opens sockets with the global WebSocket, which Node 20 lacks.
const globals = globalThis as { WebSocket?: unknown }
globals.WebSocket ??= WsWebSocket

export type ConnectionState = 'idle' | 'connecting' | 'connected' | 'disconnected' | 'auth_failed' | 'closed'

export interface ConnectionOptions {
  baseUrl: string
  token: string
  log: AppLogger
  commandTimeoutMs?: number
  pingIntervalMs?: number
  retryMinMs?: number
  retryMaxMs?: number
  /** Wait after Home Assistant refused the token: long, because failed logins count toward HA's IP ban. */
  authRetryMs?: number
  /** The longest a subscription waits for its `after` (SubscribeOptions) before subscribing all the same. */
  subscribeAfterMaxMs?: number
  /** Real time unless a test brings its own: when it went down, the retry and the ping. */
  clock?: Clock
}

interface Subscription {
  message: MessageBase
  callback: (event: unknown) => void
  after?: () => Promise<unknown>
}

export interface SubscribeOptions {
  /**
   * On each new connection, subscribe only once this has settled (or after `subscribeAfterMaxMs`): the
   * first answer of some subscriptions is the whole home, and what the caller fetches first then
   * never has it in memory at the same time.
   */
  after?: () => Promise<unknown>
}

export interface ConnectionEvents {
  onConnected?: () => void
  onDisconnected?: () => void
}

/**
 * The one WebSocket connection to Home Assistant. home-assistant-js-websocket does the protocol and
 * its own quick reconnects; this class adds what it lacks: a timeout on every command, a ping,
 * retrying the first connection forever with backoff, and retrying (slowly, loudly) after Home
 * Assistant refuses the token on a reconnect, where the library gives up for good.
 */
export class HaConnection {
  state: ConnectionState = 'idle'
  haVersion: string | undefined
  lastError: string | undefined
  /** When the connection was last lost (or first attempted); null while connected. */
  downSince: number | null
  connectedAt: number | null = null

  #opts: Required<Omit<ConnectionOptions, 'log'>> & { log: AppLogger }
  #conn: Connection | undefined
  #subscriptions: Subscription[] = []
  #events: ConnectionEvents
  #cancelRetry = (): void => {}
  #stopPing = (): void => {}
  #attempt = 0

  constructor (options: ConnectionOptions, events: ConnectionEvents = {}) {
    this.#opts = {
      commandTimeoutMs: 30_000,
      pingIntervalMs: 30_000,
      retryMinMs: 1_000,
      retryMaxMs: 30_000,
      authRetryMs: 300_000,
      subscribeAfterMaxMs: 20_000,
      ...options,
      clock: options.clock ?? realClock
    }
    this.#events = events
    this.downSince = this.#opts.clock.now()
  }

  get connected (): boolean {
    return this.state === 'connected' && this.#conn?.connected === true
  }

  /** Starts connecting in the background; never throws. */
  start (): void {
    if (this.state !== 'idle') return
    this.#connect()
  }

  /** A subscription that is (re)established on every connection, including brand new ones. */
  subscribe (message: MessageBase, callback: (event: unknown) => void, options: SubscribeOptions = {}): void {
    const subscription: Subscription = { message, callback, ...(options.after ? { after: options.after } : {}) }
    this.#subscriptions.push(subscription)
    if (this.#conn && this.connected) this.#subscribeOn(this.#conn, subscription)
  }

  async command<T = unknown>(message: MessageBase, timeoutMs = this.#opts.commandTimeoutMs): Promise<T> {
    const conn = this.#conn
    if (!conn || !this.connected) throw new HaNotConnectedError(this.#downReason())
    this.#opts.log.debug({ ws: message.type }, 'ws command')
    try {
      // Real time on purpose: it bounds a real peer's answer. On an injected clock, moving past the
      // ping interval would send a ping and time it out in the same step, and drop the connection.
      return await within(realClock, timeoutMs, conn.sendMessagePromise<T>(message), () => { throw new HaTimeoutError(message.type, timeoutMs) })
    } catch (err) {
      throw this.#translate(err, message.type)
    }
  }

  async close (): Promise<void> {
    this.state = 'closed'
    this.#cancelRetry()
    this.#stopPing()
    const conn = this.#conn
    this.#conn = undefined
    conn?.close()
  }

  #downReason (): string {
    if (this.state === 'auth_failed') return ': Home Assistant refused the token (retrying every few minutes)'
    if (this.lastError) return ` (${this.lastError}); reconnecting automatically, try again in a few seconds`
    return '; reconnecting automatically, try again in a few seconds'
  }

  #translate (err: unknown, type: string): Error {
    if (err instanceof Error) return err
    const raw = err as { code?: unknown, message?: unknown, error?: { code?: unknown, message?: unknown } }
    if (raw?.error?.code === 3 || raw?.code === 3) return new HaNotConnectedError(': the connection was lost during the command', undefined, { lostDuringCommand: true })
    const code = String(raw?.code ?? raw?.error?.code ?? 'unknown_error')
    const text = String(raw?.message ?? raw?.error?.message ?? 'no message')
    return new HaCommandFailedError(type, text, code, err)
  }

  #connect (): void {
    if (this.state === 'closed') return
    this.state = 'connecting'
    this.#attempt++
    const auth = createLongLivedTokenAuth(this.#opts.baseUrl, this.#opts.token)
    createConnection({ auth, setupRetry: 0 }).then(conn => {
      if (this.state === 'closed') { conn.close(); return }
      this.#adopt(conn)
    }, (err: unknown) => {
      if (this.state === 'closed') return
      const authFailed = err === ERR_INVALID_AUTH
      this.lastError = authFailed ? 'Home Assistant refused the token' : 'cannot reach Home Assistant'
      this.state = authFailed ? 'auth_failed' : 'disconnected'
      this.#scheduleRetry(authFailed)
    })
  }

  #scheduleRetry (authFailed: boolean): void {
    const delay = authFailed
      ? this.#opts.authRetryMs
      : exponentialDelay(this.#attempt, this.#opts.retryMinMs, this.#opts.retryMaxMs)
    const log = this.#opts.log
    if (authFailed) log.error({ retryInSeconds: Math.round(delay / 1000) }, 'Home Assistant refused the token; will retry')
    else log.warning({ retryInSeconds: Math.round(delay / 100) / 10, attempt: this.#attempt }, 'cannot reach Home Assistant; will retry')
    this.#cancelRetry()
    this.#cancelRetry = this.#opts.clock.schedule(() => this.#connect(), delay)
  }

  #adopt (conn: Connection): void {
    this.#conn = conn
    this.#attempt = 0
    this.haVersion = conn.haVersion
    conn.addEventListener('ready', () => this.#onUp())
    conn.addEventListener('disconnected', () => this.#onDown('connection lost'))
    conn.addEventListener('reconnect-error', (_c, error) => {
      if (error !== ERR_INVALID_AUTH) return
      // The library stops for good here; we start over with a fresh connection after a long pause.
      conn.close()
      if (this.#conn === conn) this.#conn = undefined
      this.lastError = 'Home Assistant refused the token'
      this.state = 'auth_failed'
      this.#scheduleRetry(true)
    })
    for (const subscription of this.#subscriptions) this.#subscribeOn(conn, subscription)
    this.#onUp()
  }

  #subscribeOn (conn: Connection, subscription: Subscription): void {
    const subscribe = (): void => {
      if (this.#conn !== conn || this.state === 'closed') return
      if (!conn.connected) {
        // The library's own reconnect resubscribes only what was subscribed: wait for it, then subscribe.
        const onReady = (): void => { conn.removeEventListener('ready', onReady); subscribe() }
        conn.addEventListener('ready', onReady)
        return
      }
      conn.subscribeMessage(subscription.callback, subscription.message).catch((err: unknown) => {
        this.#opts.log.error({ ws: subscription.message.type, err: this.#translate(err, subscription.message.type).message }, 'subscription failed')
      })
    }
    const after = subscription.after
    if (!after) { subscribe(); return }
    // Started after the connection's own listeners ran (onConnected invalidates caches first).
    let cancel = (): void => {}
    const waited = new Promise<void>(resolve => { cancel = this.#opts.clock.schedule(resolve, this.#opts.subscribeAfterMaxMs) })
    Promise.resolve()
      .then(async () => { await Promise.race([after(), waited]) })
      .catch(() => { /* the caller's fetch reports its own failure; subscribe all the same */ })
      .finally(() => { cancel(); subscribe() })
      .catch(() => {})
  }

  #onUp (): void {
    if (this.state === 'closed') return
    const wasDown = this.state !== 'connected'
    this.state = 'connected'
    this.lastError = undefined
    this.downSince = null
    this.connectedAt = this.#opts.clock.now()
    this.haVersion = this.#conn?.haVersion ?? this.haVersion
    this.#startPing()
    if (wasDown) {
      this.#opts.log.info({ haVersion: this.haVersion }, 'connected to Home Assistant')
      this.#events.onConnected?.()
    }
  }

  #onDown (reason: string): void {
    if (this.state === 'closed' || this.state !== 'connected') return
    this.state = 'disconnected'
    this.lastError = reason
    this.downSince = this.#opts.clock.now()
    this.#stopPing()
    this.#opts.log.warning({ reason }, 'lost the connection to Home Assistant; reconnecting')
    this.#events.onDisconnected?.()
  }

  #startPing (): void {
    this.#stopPing()
    this.#stopPing = every(this.#opts.clock, this.#opts.pingIntervalMs, () => {
      const conn = this.#conn
      if (!conn || !this.connected) return
      this.command({ type: 'ping' }, 10_000).catch(() => {
        if (this.#conn === conn && this.state === 'connected') conn.reconnect(true)
      })
    })
  }
}
