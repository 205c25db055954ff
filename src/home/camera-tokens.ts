/**
 * A camera's `access_token` attribute opens `/api/camera_proxy/<id>?token=` with nothing else, and HA
 * embeds it in `entity_picture`; both are credentials. Attributes lose them wherever they are shown,
 * and every answer passes `CameraTokens.scrub` as a last net (templates, traces, free text).
 */

/** Attributes without the camera credentials: no access_token, entity_picture without its token. */
export function withoutCameraTokens (attributes: Record<string, unknown>): Record<string, unknown> {
  if (!('access_token' in attributes) && !(typeof attributes.entity_picture === 'string' && attributes.entity_picture.includes('token='))) return attributes
  const { access_token: _token, ...rest } = attributes
  if (typeof rest.entity_picture === 'string') rest.entity_picture = stripTokenParam(rest.entity_picture)
  return rest
}

/** A URL without its `token` query parameter (relative URLs kept relative). */
export function stripTokenParam (url: string): string {
  const [path, query] = url.split('?', 2) as [string, string | undefined]
  if (query === undefined) return url
  const params = new URLSearchParams(query)
  params.delete('token')
  const rest = params.toString()
  return rest === '' ? path : `${path}?${rest}`
}

const REDACTED = '[redacted camera token]'
/** HA keeps a camera's two latest tokens valid; we remember a few more per camera. */
const KEEP_PER_CAMERA = 3

/** The camera tokens seen in the live states, so any answer quoting one can be cleaned. */
export class CameraTokens {
  #seen = new Map<string, string[]>()

  /** Records the current token of each camera state given. */
  observe (cameras: Iterable<{ entity_id: string, attributes: Record<string, unknown> }>): void {
    for (const state of cameras) {
      const token = state.attributes.access_token
      if (typeof token !== 'string' || token.length < 8) continue
      const list = this.#seen.get(state.entity_id) ?? []
      if (list[0] === token) continue
      this.#seen.set(state.entity_id, [token, ...list.filter(t => t !== token)].slice(0, KEEP_PER_CAMERA))
    }
  }

  scrub (text: string): string {
    let out = text
    for (const tokens of this.#seen.values()) {
      for (const token of tokens) if (out.includes(token)) out = out.split(token).join(REDACTED)
    }
    return out
  }
}
