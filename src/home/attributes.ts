import { ATTRIBUTE_MAX_CHARS, truncateValue } from '../shape.ts'
import { withoutCameraTokens } from './camera-tokens.ts'

/**
 * Attributes as an answer shows them: camera credentials removed, long values truncated. When
 * nothing is, the attributes themselves (shared: callers must not modify them), not a copy.
 */
export function truncateAttributes (attributes: Record<string, unknown>, max = ATTRIBUTE_MAX_CHARS): { attributes: Record<string, unknown>, truncated: string[] } {
  const shown = withoutCameraTokens(attributes)
  const keys = Object.keys(shown)
  let out: Record<string, unknown> | undefined
  let truncated: string[] | undefined
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string
    const value = shown[key]
    const next = truncateValue(value, max)
    // An own `__proto__` key is not copied by assignment: as before, the answer shows a copy without it.
    if (out === undefined && (next !== value || key === '__proto__')) {
      out = {}
      for (let j = 0; j < i; j++) out[keys[j] as string] = shown[keys[j] as string]
    }
    if (next !== value) (truncated ??= []).push(key)
    if (out !== undefined) out[key] = next
  }
  return { attributes: out ?? shown, truncated: truncated ?? [] }
}
