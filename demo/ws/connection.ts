import type { WebSocket } from 'ws'
import { adminOnlyCommand } from '../admin-only.ts'
import { HaError, invalidFormat, pyRepr } from '../errors.ts'
import type { Runtime } from '../runtime.ts'
import { isRecord } from '../util.ts'
import { NO_REPLY, RawJson, type CommandTable } from './protocol.ts'

export interface ConnectionOptions {
  /** connected through the Supervisor's /core proxy: other auth texts, supervisor token, blocked commands */
  viaSupervisor: boolean
}

/** One client WebSocket: auth phase, id rules, dispatch, coalescing and subscriptions. */
export class Connection {
  readonly socket: WebSocket
  readonly rt: Runtime
  readonly viaSupervisor: boolean
  readonly subscriptions = new Map<number, () => void>()
  private authenticated = false
  private lastId = 0
  private coalesce = false
  private queue: string[] = []
  private flushScheduled = false
  private chain: Promise<void> = Promise.resolve()
  private chained = 0
  private readonly authTimer: NodeJS.Timeout

  constructor (socket: WebSocket, rt: Runtime, commands: CommandTable, opts: ConnectionOptions) {
    this.socket = socket
    this.rt = rt
    this.viaSupervisor = opts.viaSupervisor
    this.authTimer = setTimeout(() => socket.close(), rt.options.authTimeoutMs)
    this.authTimer.unref()
    socket.on('message', (data, isBinary) => {
      if (isBinary) {
        if (!this.authenticated) socket.close()
        return
      }
      const text = data.toString()
      if (!this.authenticated) this.handleAuth(text)
      else this.handleCommands(text, commands)
    })
    socket.on('close', () => this.dispose())
    socket.on('error', () => this.dispose())
    this.write(JSON.stringify({ type: 'auth_required', ha_version: rt.options.haVersion }))
  }

  dispose (): void {
    clearTimeout(this.authTimer)
    for (const unsubscribe of this.subscriptions.values()) unsubscribe()
    this.subscriptions.clear()
    this.rt.connections.delete(this)
  }

  private handleAuth (text: string): void {
    let msg: unknown
    try { msg = JSON.parse(text) } catch { this.socket.close(); return }
    const invalid = (message: string): void => {
      this.write(JSON.stringify({ type: 'auth_invalid', message }))
      this.socket.close()
    }
    if (!isRecord(msg) || msg.type !== 'auth' || (typeof msg.access_token !== 'string' && typeof msg.api_password !== 'string')) {
      const got = isRecord(msg) ? msg.type : msg
      invalid(msg !== null && isRecord(msg) && msg.type === 'auth'
        ? "Auth message incorrectly formatted: required key not provided @ data['access_token']. Got None"
        : `Auth message incorrectly formatted: value must be one of ['auth'] for dictionary value @ data['type']. Got ${pyRepr(got)}`)
      return
    }
    const token = typeof msg.access_token === 'string' ? msg.access_token : msg.api_password
    const expected = this.viaSupervisor ? this.rt.options.supervisorToken : this.rt.options.token
    const message = this.viaSupervisor ? 'Invalid access' : 'Invalid access token or password'
    if (this.rt.faults.refuseAuth > 0) {
      this.rt.faults.refuseAuth--
      invalid(message)
      return
    }
    if (token !== expected) { invalid(message); return }
    clearTimeout(this.authTimer)
    this.authenticated = true
    this.write(JSON.stringify({ type: 'auth_ok', ha_version: this.rt.options.haVersion }))
  }

  private handleCommands (text: string, commands: CommandTable): void {
    let parsed: unknown
    try { parsed = JSON.parse(text) } catch { this.socket.close(); return }
    const list = Array.isArray(parsed) ? parsed : [parsed]
    for (const msg of list) this.handleOne(msg, commands)
  }

  private handleOne (msg: unknown, commands: CommandTable): void {
    if (!isRecord(msg) || typeof msg.id !== 'number' || !Number.isInteger(msg.id) || msg.id <= 0 || typeof msg.type !== 'string') {
      const id = isRecord(msg) && typeof msg.id === 'number' ? msg.id : 0
      this.sendError(id, invalidFormat('Message incorrectly formatted.'))
      return
    }
    const id = msg.id
    if (id <= this.lastId) {
      this.sendError(id, new HaError('id_reuse', 'Identifier values have to increase.'))
      return
    }
    this.lastId = id
    const type = msg.type
    if (this.viaSupervisor && (type.startsWith('supervisor/') || type.startsWith('hassio/'))) {
      this.sendError(id, new HaError('unauthorized', 'Unauthorized'))
      return
    }
    if (!this.viaSupervisor && !this.rt.options.admin && adminOnlyCommand(type)) {
      this.sendError(id, new HaError('unauthorized', 'Unauthorized'))
      return
    }
    const def = commands[type]
    if (def === undefined) {
      this.sendError(id, new HaError('unknown_command', 'Unknown command.'))
      return
    }
    const hold = this.rt.faults.hold
    if (hold !== undefined && type === hold.what) {
      hold.arrived()
      hold.gate.then(() => { this.run(def, id, msg) }, () => {})
      return
    }
    this.run(def, id, msg)
  }

  private run (def: CommandTable[string], id: number, msg: Record<string, unknown>): void {
    try {
      if (def.keys !== undefined) checkKeys(msg, def.keys)
      const out = def.handle({ id, msg, conn: this, rt: this.rt })
      if (out instanceof Promise) {
        out.then(value => { this.reply(id, value) }, (err: unknown) => { this.sendError(id, toHaError(err)) })
      } else {
        this.reply(id, out)
      }
    } catch (err) {
      this.sendError(id, toHaError(err))
    }
  }

  private reply (id: number, value: unknown): void {
    if (value === NO_REPLY) return
    this.sendResult(id, value)
  }

  sendResult (id: number, value: unknown): void {
    const body = value instanceof RawJson ? value.json : JSON.stringify(value ?? null)
    this.enqueue(`{"id":${id},"type":"result","success":true,"result":${body}}`, true)
  }

  sendError (id: number, err: HaError): void {
    this.enqueue(JSON.stringify({ id, type: 'result', success: false, error: err.toWire() }), true)
  }

  sendEvent (id: number, eventJson: string): void {
    this.enqueue(`{"id":${id},"type":"event","event":${eventJson}}`, false)
  }

  sendMessage (message: Record<string, unknown>): void {
    this.enqueue(JSON.stringify(message), false)
  }

  /** Keeps every message in order; results wait for the injected delay, later messages queue behind them. */
  private enqueue (json: string, isResult: boolean): void {
    const delay = isResult ? this.rt.faults.delayMs : 0
    if (delay === 0 && this.chained === 0) { this.push(json); return }
    this.chained++
    this.chain = this.chain
      .then(async () => { if (delay > 0) await new Promise(resolve => setTimeout(resolve, delay)) })
      .then(() => { this.chained--; this.push(json) })
  }

  private push (json: string): void {
    if (!this.coalesce) { this.write(json); return }
    this.queue.push(json)
    if (this.flushScheduled) return
    this.flushScheduled = true
    setImmediate(() => {
      this.flushScheduled = false
      const batch = this.queue
      this.queue = []
      if (batch.length === 1) this.write(batch[0] as string)
      else if (batch.length > 1) this.write(`[${batch.join(',')}]`)
    })
  }

  enableCoalescing (): void { this.coalesce = true }

  private write (text: string): void {
    if (this.socket.readyState === this.socket.OPEN) this.socket.send(text)
  }
}

function checkKeys (msg: Record<string, unknown>, keys: { required?: string[], optional?: string[] }): void {
  for (const key of keys.required ?? []) if (msg[key] === undefined) throw invalidFormat(`required key not provided @ data['${key}']. Got None`)
  const allowed = new Set(['id', 'type', ...(keys.required ?? []), ...(keys.optional ?? [])])
  for (const key of Object.keys(msg)) if (!allowed.has(key)) throw invalidFormat(`extra keys not allowed @ data['${key}']. Got ${pyRepr(msg[key])}`)
}

function toHaError (err: unknown): HaError {
  if (err instanceof HaError) return err
  return new HaError('unknown_error', 'Unknown error')
}
