import { ATTRIBUTE_MAX_CHARS, truncateValue } from '../shape.ts'
import { withoutCameraTokens } from './camera-tokens.ts'

/** Attributes as an answer shows them: camera credentials removed, long values truncated. */
export function truncateAttributes (attributes: Record<string, unknown>, max = ATTRIBUTE_MAX_CHARS): { attributes: Record<string, unknown>, truncated: string[] } {
  const out: Record<string, unknown> = {}
  const truncated: string[] = []
  for (const [key, value] of Object.entries(withoutCameraTokens(attributes))) {
    const next = truncateValue(value, max)
    if (next !== value) truncated.push(key)
    out[key] = next
  }
  return { attributes: out, truncated }
}
