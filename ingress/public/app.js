// The ingress page: plain browser JavaScript, no build step. Every URL is relative, so the page works
// under Home Assistant's /api/hassio_ingress/<token>/ prefix.
/* global Node, confirm */
'use strict'

const $ = (selector) => document.querySelector(selector)

async function api (path, options = {}) {
  const headers = { accept: 'application/json', ...(options.body ? { 'content-type': 'application/json' } : {}), ...(options.method && options.method !== 'GET' ? { 'x-ha-mcp-ui': '1' } : {}) }
  const response = await fetch(path, { ...options, headers })
  const body = await response.json().catch(() => ({}))
  if (!response.ok) throw new Error(body.message || `HTTP ${response.status}`)
  return body
}

function el (tag, props = {}, ...children) {
  const node = document.createElement(tag)
  Object.assign(node, props)
  for (const child of children) node.append(child instanceof Node ? child : String(child ?? ''))
  return node
}

function fillRows (table, rows) {
  const body = table.querySelector('tbody')
  body.replaceChildren(...rows.map(cells => el('tr', {}, ...cells.map(cell => el('td', {}, cell)))))
}

function duration (seconds) {
  if (seconds < 60) return `${seconds}s`
  const minutes = Math.floor(seconds / 60)
  if (minutes < 60) return `${minutes} min`
  const hours = Math.floor(minutes / 60)
  return hours < 48 ? `${hours} h ${minutes % 60} min` : `${Math.floor(hours / 24)} days`
}

async function copyText (text) {
  try {
    await navigator.clipboard.writeText(text)
  } catch {
    // Older browsers, or a context without clipboard permission: the selection fallback.
    const area = el('textarea', { value: text })
    area.style.position = 'fixed'
    area.style.opacity = '0'
    document.body.append(area)
    area.select()
    document.execCommand('copy')
    area.remove()
  }
}

function flash (node, text) {
  node.textContent = text
  setTimeout(() => { if (node.textContent === text) node.textContent = '' }, 4000)
}

// Overview ------------------------------------------------------------------------------------
async function loadOverview () {
  const data = await api('api/overview')
  const ha = data.home_assistant
  $('#version').textContent = `Version ${data.version}`
  const pill = $('#connection')
  pill.textContent = ha.connected ? 'WebSocket connected' : `WebSocket ${ha.state}`
  pill.className = `pill ${ha.connected ? 'ok' : 'bad'}`
  $('#ha-state').textContent = ha.connected ? 'Connected' : (ha.down_for_s === null ? 'Connecting' : `Down for ${duration(ha.down_for_s)}`)
  $('#ha-version').textContent = ha.ha_version ? `Home Assistant ${ha.ha_version}` : (ha.last_error || '')
  $('#entities').textContent = String(data.entities)
  $('#uptime').textContent = duration(data.uptime_s)
  $('#calls').textContent = String(data.calls)
  fillRows($('#tools'), data.tools.map(t => [t.kind, `${t.exposed} of ${t.available}`, t.gate ? `${t.gate}: ${t.enabled ? 'on' : 'off'}` : 'always']))
  fillRows($('#options'), Object.entries(data.options).map(([key, value]) => [key, Array.isArray(value) ? (value.join(', ') || '(none)') : String(value)]))
}

// Connect -------------------------------------------------------------------------------------
let revealed = null
let showingToken = false

function renderConnect (data) {
  $('#mcp-url').textContent = data.url
  $('#url-hint').hidden = !data.url.includes('HA_IP')
  $('#port-note').hidden = !data.note
  $('#port-note').textContent = data.note || ''
  $('#token').textContent = data.token
  $('#reveal').textContent = data.revealed ? 'Hide' : 'Reveal'
  $('#clients').replaceChildren(...data.clients.map(client => {
    const button = el('button', { type: 'button', className: 'secondary', textContent: 'Copy' })
    const status = el('span', { className: 'muted' })
    button.addEventListener('click', async () => {
      const full = await revealedData()
      await copyText(full.clients.find(c => c.id === client.id).text)
      flash(status, 'Copied')
    })
    return el('div', { className: 'card client' },
      el('div', { className: 'row' }, el('div', {}, el('h3', {}, client.title), el('span', { className: 'muted' }, client.where)), el('div', { className: 'row' }, status, button)),
      el('pre', {}, client.text))
  }))
}

async function revealedData () {
  revealed ??= await api('api/connect?reveal=1')
  return revealed
}

async function loadConnect () {
  renderConnect(showingToken ? await revealedData() : await api('api/connect'))
}

// Activity ------------------------------------------------------------------------------------
async function loadActivity () {
  const params = new URLSearchParams()
  if ($('#filter-tool').value) params.set('tool', $('#filter-tool').value)
  if ($('#filter-outcome').value) params.set('outcome', $('#filter-outcome').value)
  const data = await api(`api/activity?${params}`)
  fillRows($('#usage-tools'), data.usage.byTool.map(t => [t.tool, t.calls, t.errors, t.avgMs]))
  fillRows($('#usage-tokens'), data.usage.byIdentity.map(i => [i.name, i.calls]))
  const select = $('#filter-tool')
  const chosen = select.value
  select.replaceChildren(el('option', { value: '', textContent: 'all' }), ...data.audit_tools.map(tool => el('option', { value: tool, textContent: tool })))
  select.value = chosen
  const body = $('#audit tbody')
  body.replaceChildren(...data.audit.map(entry => el('tr', {},
    el('td', {}, new Date(entry.time).toLocaleString()),
    el('td', {}, entry.tool),
    el('td', {}, entry.identity_name),
    el('td', { className: `outcome-${entry.outcome}` }, entry.outcome),
    el('td', {}, entry.domain ? `${entry.domain}.${entry.service}` : ''),
    el('td', {}, (entry.entities || []).join(', ')),
    el('td', {}, entry.reason || ''))))
  $('#audit-empty').hidden = data.audit.length > 0
  $('#audit-empty').textContent = data.audit_available ? 'No write attempts yet.' : 'The audit is not available in this build.'
}

// Tokens --------------------------------------------------------------------------------------
const LEVELS = ['none', 'read', 'write', 'manage']
let levelsDrawn = false

function describeLevels (levels) {
  const parts = Object.entries(levels).filter(([, level]) => level !== 'none')
    .map(([category, level]) => `${category === '*' ? 'everything' : category}: ${level}`)
  return parts.join(', ') || 'nothing'
}

function drawLevelChoices (categories) {
  if (levelsDrawn) return
  levelsDrawn = true
  $('#token-levels tbody').replaceChildren(...categories.map(category => {
    const select = el('select', { name: `level:${category.id}` })
    select.setAttribute('aria-label', `${category.id} level`)
    for (const level of LEVELS.slice(0, LEVELS.indexOf(category.top) + 1)) {
      const off = LEVELS.indexOf(level) > LEVELS.indexOf(category.enabled)
      select.append(el('option', { value: level, textContent: off ? `${level} (off in the options)` : level }))
    }
    select.value = category.id === 'camera' ? 'none' : 'read'
    const covers = (category.covers || []).map(c => c.kinds ? `${c.tool} (${c.kinds.join(', ')})` : c.tool).join(', ')
    return el('tr', {}, el('td', {}, category.id, el('div', { className: 'muted', textContent: covers })), el('td', {}, select))
  }))
}

function globs (text) {
  return text.split(',').map(part => part.trim()).filter(Boolean)
}

async function loadTokens () {
  const data = await api('api/tokens')
  drawLevelChoices(data.categories || [])
  const body = $('#token-list tbody')
  body.replaceChildren(...data.tokens.map(token => {
    const revoke = el('button', { type: 'button', className: 'danger', textContent: 'Revoke' })
    revoke.addEventListener('click', async () => {
      if (!confirm(`Revoke the token "${token.name}"? Clients using it stop working at once.`)) return
      await api(`api/tokens/${encodeURIComponent(token.id)}`, { method: 'DELETE' })
      await loadTokens()
    })
    const entities = [...(token.entity_allowlist || []).map(glob => `only ${glob}`), ...(token.entity_denylist || []).map(glob => `never ${glob}`)].join(', ')
    return el('tr', {}, el('td', {}, token.name), el('td', {}, el('code', {}, `${token.prefix}…`)), el('td', {}, describeLevels(token.levels)), el('td', {}, entities || 'as the options'),
      el('td', {}, new Date(token.created_at).toLocaleDateString()), el('td', {}, revoke))
  }))
  renderGrants(data.sign_ins || [])
}

function renderGrants (grants) {
  $('#grants-empty').hidden = grants.length > 0
  $('#grant-list tbody').replaceChildren(...grants.map(grant => {
    const revoke = el('button', { type: 'button', className: 'danger', textContent: 'Revoke' })
    revoke.addEventListener('click', async () => {
      if (!confirm(`Sign out "${grant.client_name}"? Its access ends at once; it must sign in again.`)) return
      await api(`api/tokens/${encodeURIComponent(grant.id)}`, { method: 'DELETE' })
      await loadTokens()
    })
    return el('tr', {}, el('td', {}, grant.client_name), el('td', {}, grant.scopes.join(', ')), el('td', {}, grant.approved_by),
      el('td', {}, new Date(grant.created_at).toLocaleString()), el('td', {}, grant.last_used_at ? new Date(grant.last_used_at).toLocaleString() : 'never'), el('td', {}, revoke))
  }))
}

// Sign-ins ------------------------------------------------------------------------------------
async function loadSignIns () {
  const data = await api('api/sign-ins')
  const count = $('#sign-in-count')
  count.hidden = data.waiting.length === 0
  count.textContent = String(data.waiting.length)
  $('#sign-ins-empty').hidden = data.waiting.length > 0
  $('#sign-in-list tbody').replaceChildren(...data.waiting.map(request => {
    // One level (each includes the ones below) and the camera on top, as on the consent page.
    const off = scope => request.scopes_off.includes(scope) ? ' (off in options)' : ''
    const level = el('select', {}, ...request.levels.map(scope => el('option', { value: scope, textContent: `${scope}${off(scope)}` })))
    level.setAttribute('aria-label', 'level')
    level.value = [...request.levels].reverse().find(scope => !request.scopes_off.includes(scope)) || request.levels[0] || ''
    const camera = el('input', { type: 'checkbox', value: 'camera', checked: !request.scopes_off.includes('camera') })
    const boxes = [...(request.levels.length ? [level] : []), ...(request.camera ? [el('label', { className: 'scope' }, camera, ` camera${off('camera')}`)] : [])]
    const decide = async (action) => {
      const choice = { level: request.levels.length ? level.value : 'none', camera: request.camera && camera.checked }
      await api(`api/sign-ins/${encodeURIComponent(request.id)}`, { method: 'POST', body: JSON.stringify({ action, ...choice }) })
      await loadSignIns()
    }
    const approve = el('button', { type: 'button', textContent: 'Approve' })
    approve.addEventListener('click', () => decide('approve').catch(showError))
    const deny = el('button', { type: 'button', className: 'danger', textContent: 'Deny' })
    deny.addEventListener('click', () => decide('deny').catch(showError))
    return el('tr', {},
      el('td', {}, el('code', {}, request.short_code)), el('td', {}, request.client_name, request.client_host ? el('div', { className: 'muted' }, request.client_host) : ''), el('td', {}, request.redirect_host),
      el('td', {}, ...boxes), el('td', {}, duration(request.expires_in_s)), el('td', {}, el('div', { className: 'row' }, approve, deny)))
  }))
}

$('#create-token').addEventListener('submit', async (event) => {
  event.preventDefault()
  const form = event.currentTarget
  const levels = Object.fromEntries([...form.querySelectorAll('select[name^="level:"]')].map(select => [select.name.slice(6), select.value]))
  const body = { name: form.elements.name.value, levels, entity_allowlist: globs(form.elements.entity_allowlist.value), entity_denylist: globs(form.elements.entity_denylist.value) }
  $('#token-error').textContent = ''
  try {
    const created = await api('api/tokens', { method: 'POST', body: JSON.stringify(body) })
    $('#new-token-value').textContent = created.token
    $('#new-token').hidden = false
    form.reset()
    levelsDrawn = false
    await loadTokens()
  } catch (err) {
    $('#token-error').textContent = err.message
  }
})
$('#copy-new-token').addEventListener('click', () => copyText($('#new-token-value').textContent))

// Wiring --------------------------------------------------------------------------------------
const loaders = { overview: loadOverview, connect: loadConnect, activity: loadActivity, 'sign-ins': loadSignIns, tokens: loadTokens }
let current = 'overview'

function show (tab) {
  current = tab
  for (const button of document.querySelectorAll('[data-tab]')) button.setAttribute('aria-selected', String(button.dataset.tab === tab))
  for (const name of Object.keys(loaders)) $(`#tab-${name}`).hidden = name !== tab
  refresh()
}

function refresh () {
  loadOverview().catch(showError)
  if (current !== 'sign-ins') loadSignIns().catch(() => {})
  if (current !== 'overview') loaders[current]().catch(showError)
}

function showError (err) {
  const pill = $('#connection')
  pill.textContent = `Page error: ${err.message}`
  pill.className = 'pill bad'
}

for (const button of document.querySelectorAll('[data-tab]')) button.addEventListener('click', () => show(button.dataset.tab))
$('#reveal').addEventListener('click', async () => {
  showingToken = !showingToken
  await loadConnect()
})
$('#copy-token').addEventListener('click', async () => {
  const data = await revealedData()
  await copyText(data.token)
  flash($('#copy-status'), 'Copied')
})
async function regenerateToken () {
  if (!window.confirm('Make a new API token? The current one stops working at once: every client that uses it must be given the new one.')) return
  const data = await api('api/token/regenerate', { method: 'POST', body: JSON.stringify({ confirm: true }) })
  revealed = data
  showingToken = true
  renderConnect(data)
  flash($('#copy-status'), 'New token made: the old one no longer works')
}
$('#regenerate-token').addEventListener('click', () => regenerateToken().catch(showError))
$('#filter-tool').addEventListener('change', () => loadActivity().catch(showError))
$('#filter-outcome').addEventListener('change', () => loadActivity().catch(showError))

show('overview')
setInterval(refresh, 5000)
