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

/** A UTF-16 code unit that is an ASCII letter or digit. */
function isAlnum (code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122)
}

/**
 * The camera tokens seen in the live states, so any answer quoting one can be cleaned. Every answer
 * passes `scrub`, so it costs one pass over the text, not one per remembered token: a token of
 * letters and digits can only sit inside a run of letters and digits at least as long as the
 * shortest token, and only such runs are looked at. The pass skips: a window as long as the shortest
 * token is read from its end, and its first character that is not a letter or digit moves the next
 * window past it, so a text of short words costs a few reads per window, not one regex step per character.
 */
export class CameraTokens {
  #seen = new Map<string, string[]>()
  #tokens = new Set<string>()
  #shortest = 0
  /** Whether every token is letters and digits only, so that only long runs of them need a look. */
  #alnumOnly = false

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
    this.#alnumOnly = [...this.#tokens].every(token => ALNUM.test(token))
  }

  scrub (text: string): string {
    if (this.#tokens.size === 0) return text
    if (!this.#alnumOnly) return this.#replaceEach(text)
    const shortest = this.#shortest
    const length = text.length
    let out: string | undefined
    let copied = 0
    // `start` is always where a run of letters and digits may begin (the text's start, or just after a
    // character that is neither), so a window that is all letters and digits starts a run.
    let start = 0
    while (start + shortest <= length) {
      let at = start + shortest - 1
      while (at >= start && isAlnum(text.charCodeAt(at))) at--
      if (at >= start) {
        // No run that long can cover `at`: the next one starts after it.
        start = at + 1
        continue
      }
      let end = start + shortest
      while (end < length && isAlnum(text.charCodeAt(end))) end++
      const run = text.slice(start, end)
      const cleaned = this.#tokens.has(run) ? REDACTED : run.length > shortest ? this.#replaceEach(run) : run
      if (cleaned !== run) {
        out = `${out ?? ''}${text.slice(copied, start)}${cleaned}`
        copied = end
      }
      start = end + 1
    }
    return out === undefined ? text : `${out}${text.slice(copied)}`
  }

  #replaceEach (text: string): string {
    let out = text
    for (const token of this.#tokens) if (out.includes(token)) out = out.split(token).join(REDACTED)
    return out
  }
}
