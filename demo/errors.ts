/** An error with Home Assistant's WebSocket error code; REST maps it to a status. */
export class HaError extends Error {
  readonly code: string
  readonly translation?: { key: string, domain: string, placeholders: Record<string, string> | null }

  constructor (code: string, message: string, translation?: HaError['translation']) {
    super(message)
    this.code = code
    if (translation !== undefined) this.translation = translation
  }

  toWire (): Record<string, unknown> {
    const out: Record<string, unknown> = { code: this.code, message: this.message }
    if (this.translation !== undefined) {
      out.translation_key = this.translation.key
      out.translation_domain = this.translation.domain
      out.translation_placeholders = this.translation.placeholders
    }
    return out
  }
}

/** Python-like repr, used in voluptuous-style messages ("Got 'x'"). */
export function pyRepr (value: unknown): string {
  if (value === undefined || value === null) return 'None'
  if (typeof value === 'string') return `'${value}'`
  if (typeof value === 'boolean') return value ? 'True' : 'False'
  if (typeof value === 'number') return String(value)
  return JSON.stringify(value).replace(/"/g, "'").replace(/\btrue\b/g, 'True').replace(/\bfalse\b/g, 'False').replace(/\bnull\b/g, 'None')
}

export function invalidFormat (message: string): HaError {
  return new HaError('invalid_format', message)
}

export function requiredKey (key: string): HaError {
  return invalidFormat(`required key not provided @ data['${key}']. Got None`)
}
