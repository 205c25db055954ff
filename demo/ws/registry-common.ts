import { HaError, invalidFormat, pyRepr } from '../errors.ts'
import { epochSeconds } from '../util.ts'

/** What the registry write commands share: HA's id rule, name check and voluptuous-style type errors. */

export const now = (): number => epochSeconds(Date.now())
export const strings = (value: unknown): string[] => Array.isArray(value) ? value.map(String) : []
export const nullableString = (value: unknown): string | null => typeof value === 'string' ? value : null
export const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b)

export function uniqueId (base: string, taken: (id: string) => boolean): string {
  let id = base
  for (let n = 2; taken(id); n++) id = `${base}_${n}`
  return id
}

/** HA compares names with case and spaces folded away. */
const normalName = (name: string): string => name.toLowerCase().replace(/\s/g, '')

export function checkName (names: Iterable<[string, string]>, name: string, except?: string): void {
  for (const [id, existing] of names) {
    if (id !== except && normalName(existing) === normalName(name)) throw new HaError('invalid_info', `The name ${name} (${normalName(name)}) is already in use`)
  }
}

export function typed (msg: Record<string, unknown>, key: string, kind: 'str' | 'int' | 'list' | 'bool' | 'float' | 'aliases', nullable: boolean): void {
  if (!(key in msg)) return
  const value = msg[key]
  if (value === null && nullable) return
  const checks: Record<typeof kind, () => boolean> = {
    str: () => typeof value === 'string',
    int: () => Number.isInteger(value),
    float: () => typeof value === 'number',
    bool: () => typeof value === 'boolean',
    list: () => Array.isArray(value) && value.every(v => typeof v === 'string'),
    aliases: () => Array.isArray(value) && value.every(v => typeof v === 'string' || v === null)
  }
  const ok = checks[kind]()
  if (!ok) {
    const expected = { str: 'expected str', int: 'expected int', list: 'expected a list', aliases: 'expected a list', bool: 'expected bool', float: 'expected float' }[kind]
    throw invalidFormat(`${expected} for dictionary value @ data['${key}']. Got ${pyRepr(value)}`)
  }
}

export const COLOR_NAMES = new Set(['primary', 'accent', 'red', 'pink', 'purple', 'deep-purple', 'indigo', 'blue', 'light-blue', 'cyan', 'teal', 'green', 'light-green', 'lime', 'yellow', 'amber', 'orange', 'deep-orange', 'brown', 'light-grey', 'grey', 'dark-grey', 'blue-grey', 'black', 'white', 'disabled'])
export function checkIcon (msg: Record<string, unknown>): void {
  if (typeof msg.icon === 'string' && !msg.icon.includes(':')) throw invalidFormat(`Icons should be specified in the form "prefix:name" for dictionary value @ data['icon']. Got ${pyRepr(msg.icon)}`)
}
