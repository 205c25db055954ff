import type { Runtime } from '../runtime.ts'
import type { Connection } from './connection.ts'

/** A result that is already JSON (big, cached payloads such as get_states). */
export class RawJson {
  readonly json: string
  constructor (json: string) { this.json = json }
}

/** Returned by handlers that send their own result (subscriptions). */
export const NO_REPLY = Symbol('no-reply')

export interface CommandContext {
  id: number
  msg: Record<string, unknown>
  conn: Connection
  rt: Runtime
}

export interface CommandDef {
  /** allowed keys besides id/type; undefined = accept anything */
  keys?: { required?: string[], optional?: string[] }
  handle: (ctx: CommandContext) => unknown
}

export type CommandTable = Record<string, CommandDef>
