import type { Scope } from '../auth/identity.ts'
import { clientDocumentHost } from './client-documents.ts'
import type { AuthorizationRequest } from './requests.ts'
import { CONSENT_STRINGS, consentLanguage, type ConsentStrings } from './consent-strings.ts'
import { LEVEL_SCOPES, levelOfScopes } from './scopes.ts'

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }
export function escapeHtml (text: string): string {
  return text.replace(/[&<>"']/g, c => ESCAPES[c] as string)
}

const STYLE = `
body{font:15px/1.45 system-ui,sans-serif;max-width:34rem;margin:2rem auto;padding:0 1rem;color:#1c1c1c;background:#fafafa}
h1{font-size:1.3rem}.card{background:#fff;border:1px solid #ddd;border-radius:10px;padding:1rem 1.2rem;margin:1rem 0}
.code{font:600 1.4rem ui-monospace,monospace;letter-spacing:.08em}.muted{color:#666}.error{color:#b00020;font-weight:600}
label{display:block;margin:.35rem 0}input[type=password]{width:100%;padding:.45rem;font:inherit;box-sizing:border-box;color:inherit;background:#fff;border:1px solid #888;border-radius:6px}
.row{display:flex;gap:.6rem;margin-top:.8rem}button{font:inherit;padding:.45rem 1.1rem;border-radius:6px;border:1px solid #888;background:#fff;cursor:pointer}
button.primary{background:#03a9f4;border-color:#0288d1;color:#fff}.off{color:#999}
@media (prefers-color-scheme:dark){body{background:#111;color:#eee}.card{background:#1d1d1d;border-color:#333}.muted{color:#aaa}button{background:#222;color:#eee}
input[type=password]{background:#111;border-color:#555}.error{color:#ff6b6b}.off{color:#888}}
:root{color-scheme:light dark}`

export interface ConsentPageInput {
  request: AuthorizationRequest
  /** Scopes the add-on options switch off today (still granted, capped until they are switched on). */
  disabledScopes: Scope[]
  nonce: string
  error?: string
  /** The browser's Accept-Language: the page speaks the first language it has, English otherwise. */
  acceptLanguage?: string
}

/** A translated sentence (trusted HTML) with its {placeholders} filled by already escaped HTML. */
function fill (text: string, values: Record<string, string>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole)
}

/**
 * One level (each includes the ones below, as on the Tokens tab) and camera on top. The preselected
 * level is the highest one asked that the add-on options allow; a switched-off scope is never pre-ticked.
 */
function scopeRows (request: AuthorizationRequest, disabled: Scope[], words: ConsentStrings): string {
  const OFF_NOTE = ` <span class="off">${words.offNote}</span>`
  const asked = levelOfScopes(request.scopes)
  const levels = asked === null ? [] : LEVEL_SCOPES.slice(0, LEVEL_SCOPES.indexOf(asked) + 1)
  const preselected = [...levels].reverse().find(level => !disabled.includes(level)) ?? levels[0]
  const rows = levels.map(level => {
    const off = disabled.includes(level) ? OFF_NOTE : ''
    return `<label><input type="radio" name="level" value="${level}"${level === preselected ? ' checked' : ''} data-testid="level-${level}"> <b>${words.level[level]}</b>: ${escapeHtml(words.meaning[level])}${off}</label>`
  })
  if (request.scopes.includes('camera')) {
    const off = disabled.includes('camera')
    rows.push(`<label><input type="checkbox" name="scope" value="camera"${off ? '' : ' checked'} data-testid="scope-camera"> <b>${words.level.camera}</b>: ${escapeHtml(words.meaning.camera)}${off ? OFF_NOTE : ''}</label>`)
  }
  return rows.join('\n')
}

/** A client known by its metadata document URL: its domain is who it is; the name is its own claim. */
function clientOrigin (request: AuthorizationRequest, words: ConsentStrings): string {
  const host = clientDocumentHost(request.clientId)
  if (!host) return ''
  return `<p class="card">${fill(words.clientOrigin, { host: `<b data-testid="client-host">${escapeHtml(host)}</b>`, url: `<span class="muted">${escapeHtml(request.clientId)}</span>` })}</p>`
}

/** The browser step: who asks, where the answer goes, what it may do; approve here or in the panel. */
export function consentPage ({ request, disabledScopes, nonce, error, acceptLanguage }: ConsentPageInput): string {
  const minutes = Math.max(1, Math.round((request.expiresAt - request.createdAt) / 60_000))
  const lang = consentLanguage(acceptLanguage)
  const words = CONSENT_STRINGS[lang] as ConsentStrings
  const client = escapeHtml(request.clientName)
  return `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><title>${fill(words.title, { client })}</title><style>${STYLE}</style></head>
<body>
<h1>${fill(words.heading, { client: `<span data-testid="client-name">${client}</span>` })}</h1>
${clientOrigin(request, words)}
<p>${fill(words.intro, { host: `<b data-testid="redirect-host">${escapeHtml(request.redirectHost)}</b>` })}</p>
<div class="card"><div class="muted">${words.requestCode}</div><div class="code" data-testid="short-code">${escapeHtml(request.shortCode)}</div>
<div class="muted">${fill(words.checkCode, { minutes: String(minutes) })}</div></div>
<form method="post" class="card" id="consent">
<input type="hidden" name="request" value="${escapeHtml(request.id)}">
<div class="muted">${words.mayHeading}</div>
${scopeRows(request, disabledScopes, words)}
<p class="muted">${words.chooseHint}</p>
<p>${words.approveInPanel}
<span id="waiting" class="muted" role="status" data-testid="waiting">${words.waiting}</span></p>
<p>${words.orHere}</p>
<label>${words.tokenLabel} <input type="password" name="api_token" autocomplete="off" data-testid="api-token"></label>
${error ? `<p class="error" role="alert" data-testid="consent-error">${escapeHtml(words.errors[error] ?? error)}</p>` : ''}
<div class="row"><button class="primary" type="submit" name="action" value="allow">${words.allow}</button><button type="submit" name="action" value="deny" formnovalidate>${words.deny}</button></div>
</form>
<script nonce="${nonce}">
(function () {
  var id = ${JSON.stringify(request.id)};
  var words = ${JSON.stringify({ approved: words.approved, denied: words.denied, expired: words.expired, finished: words.finished }).replace(/</g, '\\u003c')};
  function poll () {
    fetch('authorize/status?request=' + encodeURIComponent(id), { headers: { accept: 'application/json' } })
      .then(function (r) { return r.json() })
      .then(function (s) {
        if (s.redirect) { document.getElementById('waiting').textContent = s.approved ? words.approved : words.denied; location.replace(s.redirect); return }
        if (s.status === 'expired') { document.getElementById('waiting').textContent = words.expired; return }
        if (s.status === 'finished') { document.getElementById('waiting').textContent = words.finished; return }
        setTimeout(poll, 1500)
      }, function () { setTimeout(poll, 3000) })
  }
  setTimeout(poll, 1000)
})()
</script>
</body></html>`
}

/** A request that cannot go back to the client (unknown client, bad redirect, expired): told to the user. */
export function problemPage (title: string, message: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><h1>${escapeHtml(title)}</h1>
<p class="card" data-testid="problem">${escapeHtml(message)}</p></body></html>`
}
