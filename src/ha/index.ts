import { HaConnection, type ConnectionOptions } from './connection.ts'
import { HttpClient, SupervisorClient } from './http.ts'
import { Registries, REGISTRY_KINDS } from './registries.ts'
import { entitiesMessageProblem } from './schemas.ts'
import { StateStore, type EntitiesMessage } from './state-store.ts'
import { realClock, within, type Clock } from '../clock.ts'
import { HaNotConnectedError } from '../errors.ts'
import { InternTable } from '../intern.ts'
import { NOT_ADMIN_EFFECT } from './rights.ts'

import type { AppLogger } from '../logger.ts'

export interface HomeAssistantOptions {
  mode: 'dev' | 'addon' | 'none'
  baseUrl: string
  token: string
  supervisorUrl: string
  supervisorToken: string | undefined
  log: AppLogger
  connection?: Partial<Omit<ConnectionOptions, 'baseUrl' | 'token' | 'log'>>
  registryTtlMs?: number
  /** Real time unless a test brings its own (src/clock.ts). */
  clock?: Clock
  /** The app's table of repeated texts (src/intern.ts); a table of its own when not given. */
  texts?: InternTable
}

export interface HomeAssistantStatus {
  mode: HomeAssistantOptions['mode']
  state: string
  connected: boolean
  haVersion: string | undefined
  downSince: number | null
  connectedAt: number | null
  lastError: string | undefined
  entities: number
  /** Whether the token's user is a Home Assistant administrator; null until known (and in add-on mode, where the Supervisor's proxy is one). */
  admin: boolean | null
}

/**
 * Everything the server knows about Home Assistant: one WebSocket connection, the live state map fed
 * by subscribe_entities, the registry caches kept fresh by registry events, and the REST and
 * Supervisor clients. Created once; shared by every request.
 */
export class HomeAssistant {
  readonly states: StateStore
  /** The repeated texts of states and registries, kept once; the entity catalogue keeps its own in it too. */
  readonly texts: InternTable
  readonly registries: Registries
  readonly rest: HttpClient
  readonly supervisor: SupervisorClient
  readonly connection: HaConnection
  readonly mode: HomeAssistantOptions['mode']
  #log: AppLogger
  #clock: Clock
  #readyWaiters: Array<() => void> = []
  #warmedUp = false
  #readyListeners: Array<() => void> = []
  #connectionListeners = new Set<(up: boolean) => void>()
  #admin: boolean | null = null
  #adminCheck: Promise<void> = Promise.resolve()

  constructor (options: HomeAssistantOptions) {
    this.mode = options.mode
    this.#log = options.log
    this.#clock = options.clock ?? realClock
    this.texts = options.texts ?? new InternTable()
    this.states = new StateStore(this.texts)
    this.connection = new HaConnection({
      baseUrl: options.baseUrl,
      token: options.token,
      log: options.log,
      clock: this.#clock,
      ...options.connection
    }, {
      onConnected: () => {
        this.registries.invalidate()
        this.#warmedUp = false
      },
      onDisconnected: () => {
        this.states.expectSnapshot()
        for (const listener of this.#connectionListeners) listener(false)
      }
    })
    this.registries = new Registries(message => this.command(message), options.log, { ttlMs: options.registryTtlMs, now: this.#clock.now, texts: this.texts })
    this.rest = new HttpClient({ baseUrl: options.mode === 'none' ? '' : options.baseUrl, token: options.token, log: options.log })
    this.supervisor = new SupervisorClient(new HttpClient({ baseUrl: options.supervisorUrl, token: options.supervisorToken, log: options.log }))

    // The registries are fetched before the states are subscribed: each of the two big registry
    // answers (megabytes on a big home, read whole) is then parsed while the home's states are not
    // yet in memory, which takes ~14 MB off the add-on's peak on a 10,000-entity home.
    const registriesFirst = async (): Promise<void> => { await this.registries.snapshot() }
    this.connection.subscribe({ type: 'subscribe_entities' }, event => {
      const problem = entitiesMessageProblem(event)
      if (problem) {
        this.#log.error({ problem }, 'ignored a malformed subscribe_entities message from Home Assistant')
        return
      }
      this.states.apply(event as EntitiesMessage)
      if (this.states.ready) {
        this.#flushWaiters()
        this.#warmUp()
      }
    }, { after: registriesFirst })
    for (const kind of REGISTRY_KINDS) {
      this.connection.subscribe({ type: 'subscribe_events', event_type: `${kind}_registry_updated` }, event => {
        // An entity change names its entry, which is read again alone; the other registries have no such command.
        if (kind === 'entity') this.registries.entityChanged((event as { data?: unknown } | null)?.data)
        else this.registries.invalidate(kind)
      })
    }
  }

  start (): void {
    if (this.mode === 'none') {
      this.#log.error('no Home Assistant configured: set HA_URL and HA_TOKEN, or run as an add-on (SUPERVISOR_TOKEN)')
      return
    }
    this.connection.start()
  }

  /** Connected and holding a complete state snapshot: reads can be served. */
  get ready (): boolean {
    return this.connection.connected && this.states.ready
  }

  status (): HomeAssistantStatus {
    const c = this.connection
    return {
      mode: this.mode,
      state: this.mode === 'none' ? 'not_configured' : c.state,
      connected: this.ready,
      haVersion: c.haVersion,
      downSince: c.downSince,
      connectedAt: c.connectedAt,
      lastError: c.lastError,
      entities: this.states.size,
      admin: this.#admin
    }
  }

  /** Resolves once reads can be served, or fails after `timeoutMs`. */
  async whenReady (timeoutMs: number): Promise<void> {
    if (this.ready) return
    let done = (): void => {}
    const ready = new Promise<void>(resolve => { done = resolve; this.#readyWaiters.push(done) })
    const notConnected = (): never => {
      this.#readyWaiters = this.#readyWaiters.filter(w => w !== done)
      throw new HaNotConnectedError(this.connection.lastError ? ` (${this.connection.lastError})` : '')
    }
    await within(this.#clock, timeoutMs, ready, notConnected)
  }

  async command<T = unknown>(message: { type: string, [key: string]: unknown }, timeoutMs?: number): Promise<T> {
    return await this.connection.command<T>(message, timeoutMs)
  }

  async close (): Promise<void> {
    await this.connection.close()
  }

  /** Whether the token's user is an administrator, once this connection's check is done (null: unknown or add-on mode). */
  async admin (): Promise<boolean | null> {
    await this.#adminCheck
    return this.#admin
  }

  /** Called once per connection, as soon as the states are in (for warming caches in the background). */
  onReady (listener: () => void): void {
    this.#readyListeners.push(listener)
  }

  /** Called with false when the connection is lost and with true once it is back with its states in; returns the unsubscribe. */
  onConnectionChange (listener: (up: boolean) => void): () => void {
    this.#connectionListeners.add(listener)
    return () => { this.#connectionListeners.delete(listener) }
  }

  #warmUp (): void {
    if (this.#warmedUp) return
    this.#warmedUp = true
    if (this.mode === 'dev') this.#adminCheck = this.#checkAdmin()
    for (const listener of this.#readyListeners) listener()
    for (const listener of this.#connectionListeners) listener(true)
  }

  /**
   * In development mode the token is a person's: Home Assistant refuses a non-administrator every
   * registry, dashboard and helper write, traces, the system log and the automation and script config
   * views (`require_admin` in core's websocket_api/decorators.py and http/decorators.py). Said once per
   * connection, so the owner knows why before the first refusal.
   */
  async #checkAdmin (): Promise<void> {
    try {
      const user = await this.command<{ name?: unknown, is_admin?: unknown }>({ type: 'auth/current_user' })
      this.#admin = user?.is_admin === true
      if (!this.#admin) this.#log.warning({ user: typeof user?.name === 'string' ? user.name : undefined }, `HA_TOKEN belongs to a user who is not an administrator: ${NOT_ADMIN_EFFECT}`)
    } catch (err) {
      this.#log.warning({ err: (err as Error).message }, 'could not tell whether HA_TOKEN is an administrator\'s (auth/current_user)')
    }
  }

  #flushWaiters (): void {
    const waiters = this.#readyWaiters
    this.#readyWaiters = []
    for (const waiter of waiters) waiter()
  }
}
