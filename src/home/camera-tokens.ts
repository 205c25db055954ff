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

/** Tokens made of letters and digits only, as Home Assistant's (64 hex digits) are. */
const ALNUM = /^[A-Za-z0-9]+$/

/**
 * The camera tokens seen in the live states, so any answer quoting one can be cleaned. Every answer
 * passes `scrub`, so it costs one native scan of the text, not one per remembered token: a token of
 * letters and digits can only sit inside a run of letters and digits at least as long as the
 * shortest token, and only such runs are looked at.
 */
export class CameraTokens {
  #seen = new Map<string, string[]>()
  #tokens = new Set<string>()
  #shortest = 0
  /** Runs of letters and digits as long as the shortest token, each matched from its start. */
  #runs: RegExp | undefined

  /** Records the current token of each camera state given. */
  observe (cameras: Iterable<{ entity_id: string, attributes: Record<string, unknown> }>): void {
    for (const state of cameras) {
      const token = state.attributes.access_token
      if (typeof token !== 'string' || token.length < 8) continue
      const list = this.#seen.get(state.entity_id) ?? []
      if (list[0] === token) continue
      this.#seen.set(state.entity_id, [token, ...list.filter(t => t !== token)].slice(0, KEEP_PER_CAMERA))
      this.#changed()
    }
  }

  #changed (): void {
    this.#tokens = new Set([...this.#seen.values()].flat())
    this.#shortest = Math.min(...[...this.#tokens].map(token => token.length))
    this.#runs = [...this.#tokens].every(token => ALNUM.test(token)) ? new RegExp(`(?<![A-Za-z0-9])[A-Za-z0-9]{${this.#shortest},}`, 'g') : undefined
  }

  scrub (text: string): string {
    if (this.#tokens.size === 0) return text
    if (this.#runs === undefined) return this.#replaceEach(text)
    return text.replace(this.#runs, run => this.#tokens.has(run) ? REDACTED : run.length > this.#shortest ? this.#replaceEach(run) : run)
  }

  #replaceEach (text: string): string {
    let out = text
    for (const token of this.#tokens) if (out.includes(token)) out = out.split(token).join(REDACTED)
    return out
  }
}
