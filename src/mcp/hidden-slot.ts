/**
 * A value kept on an object itself, under a non-enumerable symbol that no JSON, key listing or schema
 * sees: what an answer remembers about its serialization. Not a WeakMap: an entry per call would be
 * a weak reference for every full GC to settle in its pause.
 */
export function hiddenSlot<T> (description: string): { get: (owner: unknown) => T | undefined, set: (owner: object, value: T) => void } {
  const key = Symbol(description)
  return {
    get: owner => typeof owner === 'object' && owner !== null ? (owner as Record<symbol, T | undefined>)[key] : undefined,
    set: (owner, value) => { Object.defineProperty(owner, key, { value }) }
  }
}
