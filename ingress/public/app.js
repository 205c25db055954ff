// The ingress page: plain browser JavaScript, no build step. Every URL is relative, so the page works
// under Home Assistant's /api/hassio_ingress/<token>/ prefix.
/* global Node, confirm */
'use strict'

const $ = (selector) => document.querySelector(selector)

// Language ------------------------------------------------------------------------------------
// The strings live in i18n/<lang>.json; the browser's languages choose one, English is the fallback
// (and fills any key a language file lacks).
const LANGUAGES = ['en', 'de', 'fr', 'es', 'nl']
let strings = {}
let english = {}
let language = 'en'

function chooseLanguage (wanted) {
  for (const tag of wanted) {
    const base = String(tag).toLowerCase().split('-')[0]
    if (LANGUAGES.includes(base)) return base
  }
  return 'en'
}

async function loadStrings () {
  language = chooseLanguage(navigator.languages?.length ? navigator.languages : [navigator.language || 'en'])
  const fetchJson = async (lang) => { const r = await fetch(`i18n/${lang}.json`); return r.ok ? await r.json() : {} }
  english = await fetchJson('en').catch(() => ({}))
  strings = language === 'en' ? english : await fetchJson(language).catch(() => ({}))
  document.documentElement.lang = language
}

/** The string for key in the chosen language, {name} placeholders filled; the fallback when no file has it. */
function t (key, vars = {}, fallback = key) {
  const text = strings[key] ?? english[key] ?? fallback
  return text.replace(/\{(\w+)\}/g, (whole, name) => name in vars ? String(vars[name]) : whole)
}

function has (key) {
  return key in strings || key in english
}

function translatePage () {
  for (const node of document.querySelectorAll('[data-i18n]')) node.textContent = t(node.dataset.i18n, {}, node.textContent)
  // Only our own files' markup (<code>, <b>), never server data.
  for (const node of document.querySelectorAll('[data-i18n-html]')) node.innerHTML = t(node.dataset.i18nHtml, {}, node.innerHTML)
  for (const node of document.querySelectorAll('[data-i18n-placeholder]')) node.placeholder = t(node.dataset.i18nPlaceholder, {}, node.placeholder)
  document.title = t('page.title', {}, document.title)
}

const dateTime = (value) => new Date(value).toLocaleString(language)
const date = (value) => new Date(value).toLocaleDateString(language)
const level = (name) => t(`level.${name}`, {}, name)
const category = (id) => t(`category.${id}`, {}, id)

// Helpers -------------------------------------------------------------------------------------
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

/** Each cell names its column, so a narrow screen can show the rows as labelled cards (style.css). */
function labelCells (table) {
  const heads = [...table.querySelectorAll('thead th')].map(th => th.textContent.trim())
  for (const row of table.querySelectorAll('tbody tr')) {
    [...row.children].forEach((cell, index) => { if (heads[index]) cell.dataset.label = heads[index] })
  }
}

function setRows (table, rows) {
  table.querySelector('tbody').replaceChildren(...rows)
  labelCells(table)
}

function fillRows (table, rows) {
  setRows(table, rows.map(cells => el('tr', {}, ...cells.map(cell => el('td', {}, cell)))))
}

function duration (seconds) {
  if (seconds < 60) return t('time.seconds', { n: seconds })
  const minutes = Math.floor(seconds / 60)
  if (minutes < 60) return t('time.minutes', { n: minutes })
  const hours = Math.floor(minutes / 60)
  return hours < 48 ? t('time.hoursMinutes', { h: hours, m: minutes % 60 }) : t('time.days', { n: Math.floor(hours / 24) })
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
function optionValue (key, value) {
  if (key === 'api_token') return t(String(value).startsWith('set') ? 'option.tokenSet' : 'option.tokenGenerated')
  if (value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) return t('common.none')
  if (Array.isArray(value)) return value.join(', ')
  if (typeof value === 'boolean') return t(value ? 'common.on' : 'common.off')
  return String(value)
}

/** What options.json held that the add-on could not use, in red; writes off says so first. */
function renderOptionProblems (problems, writesOff) {
  const box = $('#option-problems')
  box.hidden = problems.length === 0
  if (box.hidden) return box.replaceChildren()
  const line = (p) => el('li', {}, el('code', {}, p.option ?? 'options.json'), p.item === undefined ? '' : ` ${t('problem.item', { item: p.item, value: p.value })}`, `: ${p.reason}. `, t(`problem.${p.effect}`, { used: p.used ?? '' }, p.effect))
  box.replaceChildren(
    el('div', { className: 'label' }, t('overview.problemsHeading')),
    ...(writesOff ? [el('p', {}, el('b', {}, t('overview.writesOff')))] : []),
    el('ul', {}, ...problems.map(line)),
    el('p', { className: 'muted' }, t('overview.problemsFix'))
  )
}

async function loadOverview () {
  const data = await api('api/overview')
  renderOptionProblems(data.option_problems ?? [], data.writes_off === true)
  const ha = data.home_assistant
  $('#version').textContent = t('overview.version', { version: data.version })
  const pill = $('#connection')
  pill.textContent = ha.connected ? t('connection.connected') : t('connection.state', { state: ha.state })
  pill.className = `pill ${ha.connected ? 'ok' : 'bad'}`
  $('#ha-state').textContent = ha.connected ? t('overview.connected') : (ha.down_for_s === null ? t('overview.connecting') : t('overview.downFor', { duration: duration(ha.down_for_s) }))
  $('#ha-version').textContent = ha.ha_version ? `Home Assistant ${ha.ha_version}` : (ha.last_error || '')
  $('#entities').textContent = String(data.entities)
  $('#uptime').textContent = duration(data.uptime_s)
  $('#calls').textContent = String(data.calls)
  fillRows($('#tools'), data.tools.map(tool => [
    t(`kind.${tool.kind}`, {}, tool.kind),
    t('overview.offered', { exposed: tool.exposed, available: tool.available }),
    tool.gate
      ? el('span', {}, `${t(`gate.${tool.gate}`, {}, tool.gate)}: `, el('b', { className: tool.enabled ? 'on' : 'off' }, t(tool.enabled ? 'common.on' : 'common.off')), ' ', el('code', {}, tool.gate))
      : t('overview.alwaysOn')
  ]))
  fillRows($('#options'), Object.entries(data.options).map(([key, value]) => [el('code', {}, key), optionValue(key, value)]))
}

// Connect -------------------------------------------------------------------------------------
let revealed = null
let showingToken = false

function renderConnect (data) {
  $('#mcp-url').textContent = data.url
  $('#url-hint').hidden = !data.url.includes('HA_IP')
  $('#port-note').hidden = !data.note
  $('#port-note').textContent = data.port_disabled ? t('connect.portDisabled') : (data.note || '')
  $('#token').textContent = data.token
  $('#reveal').textContent = data.revealed ? t('connect.hide') : t('connect.reveal')
  $('#clients').replaceChildren(...data.clients.map(client => {
    const button = el('button', { type: 'button', className: 'secondary', textContent: t('common.copy') })
    const status = el('span', { className: 'muted', role: 'status' })
    button.addEventListener('click', async () => {
      const full = await revealedData()
      await copyText(full.clients.find(c => c.id === client.id).text)
      flash(status, t('common.copied'))
    })
    return el('div', { className: 'card client' },
      el('div', { className: 'row' }, el('div', {}, el('h3', {}, client.title), el('span', { className: 'muted' }, t(`client.where.${client.id}`, {}, client.where))), el('div', { className: 'row' }, status, button)),
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
const outcome = (name) => t(`outcome.${name}`, {}, name)

async function loadActivity () {
  const params = new URLSearchParams()
  if ($('#filter-tool').value) params.set('tool', $('#filter-tool').value)
  if ($('#filter-outcome').value) params.set('outcome', $('#filter-outcome').value)
  const data = await api(`api/activity?${params}`)
  fillRows($('#usage-tools'), data.usage.byTool.map(tool => [el('code', {}, tool.tool), tool.calls, tool.errors, tool.avgMs]))
  $('#usage-tools-empty').hidden = data.usage.byTool.length > 0
  fillRows($('#usage-tokens'), data.usage.byIdentity.map(i => [i.identity === 'primary' ? t('activity.primaryToken') : i.name, i.calls]))
  const select = $('#filter-tool')
  const chosen = select.value
  select.replaceChildren(el('option', { value: '', textContent: t('activity.all') }), ...data.audit_tools.map(tool => el('option', { value: tool, textContent: tool })))
  select.value = chosen
  setRows($('#audit'), data.audit.map(entry => el('tr', {},
    el('td', {}, dateTime(entry.time)),
    el('td', {}, el('code', {}, entry.tool)),
    el('td', {}, entry.identity === 'primary' ? t('activity.primaryToken') : entry.identity_name),
    el('td', { className: `outcome-${entry.outcome}` }, outcome(entry.outcome)),
    el('td', {}, entry.domain ? `${entry.domain}.${entry.service}` : ''),
    el('td', {}, (entry.entities || []).join(', ')),
    el('td', {}, entry.reason || ''))))
  $('#audit').hidden = data.audit.length === 0
  $('#audit-empty').hidden = data.audit.length > 0
  $('#audit-empty').textContent = data.audit_available ? t('activity.noWrites') : t('activity.noAudit')
}

// Tokens --------------------------------------------------------------------------------------
const LEVELS = ['none', 'read', 'write', 'manage']
let levelsDrawn = false

function describeLevels (levels) {
  const parts = Object.entries(levels).filter(([, value]) => value !== 'none')
    .map(([id, value]) => `${id === '*' ? t('tokens.everything') : category(id)}: ${level(value)}`)
  return parts.join(', ') || t('tokens.nothing')
}

/** Which tools a category's levels cover: the list the server gives, or the count. */
function coverage (row) {
  const covers = Array.isArray(row.covers) ? row.covers : null
  const count = row.tools === 1 ? t('tokens.toolCountOne') : t('tokens.toolCount', { n: row.tools })
  const summary = el('summary', {}, count)
  if (!covers) return el('div', { className: 'muted small' }, count)
  const byLevel = LEVELS.slice(1).map(name => [name, covers.filter(c => c.level === name)]).filter(([, list]) => list.length > 0)
  return el('details', { className: 'covers' }, summary,
    el('ul', {}, ...byLevel.map(([name, list]) => el('li', {}, el('b', {}, `${level(name)}: `),
      ...list.flatMap((c, i) => [i ? ', ' : '', el('code', {}, c.tool), c.kinds ? ` (${c.kinds.join(', ')})` : ''])))))
}

function drawLevelChoices (categories) {
  if (levelsDrawn) return
  levelsDrawn = true
  setRows($('#token-levels'), categories.map(row => {
    const select = el('select', { name: `level:${row.id}` })
    select.setAttribute('aria-label', t('tokens.levelFor', { category: row.id }))
    for (const name of LEVELS.slice(0, LEVELS.indexOf(row.top) + 1)) {
      const off = LEVELS.indexOf(name) > LEVELS.indexOf(row.enabled)
      select.append(el('option', { value: name, textContent: off ? t('tokens.levelOff', { level: level(name) }) : level(name) }))
    }
    select.value = row.id === 'camera' ? 'none' : 'read'
    const about = has(`categoryHelp.${row.id}`) ? el('div', { className: 'muted small' }, t(`categoryHelp.${row.id}`)) : ''
    return el('tr', {}, el('td', {}, el('div', { className: 'category' }, el('b', {}, category(row.id)), ' ', el('code', {}, row.id)), about, coverage(row)), el('td', {}, select))
  }))
}

function globs (text) {
  return text.split(',').map(part => part.trim()).filter(Boolean)
}

async function loadTokens () {
  const data = await api('api/tokens')
  drawLevelChoices(data.categories || [])
  $('#tokens-empty').hidden = data.tokens.length > 0
  $('#token-list').hidden = data.tokens.length === 0
  setRows($('#token-list'), data.tokens.map(token => {
    const revoke = el('button', { type: 'button', className: 'danger', textContent: t('tokens.revoke') })
    revoke.addEventListener('click', async () => {
      if (!confirm(t('tokens.confirmRevoke', { name: token.name }))) return
      await api(`api/tokens/${encodeURIComponent(token.id)}`, { method: 'DELETE' })
      await loadTokens()
    })
    const entities = [...(token.entity_allowlist || []).map(glob => t('tokens.only', { glob })), ...(token.entity_denylist || []).map(glob => t('tokens.never', { glob }))].join(', ')
    return el('tr', {}, el('td', {}, token.name), el('td', {}, el('code', {}, `${token.prefix}…`)), el('td', {}, describeLevels(token.levels)), el('td', {}, entities || t('tokens.asOptions')),
      el('td', {}, date(token.created_at)), el('td', {}, token.last_used_at ? dateTime(token.last_used_at) : t('tokens.never_used')), el('td', {}, revoke))
  }))
  renderGrants(data.sign_ins || [])
}

function renderGrants (grants) {
  $('#grants-empty').hidden = grants.length > 0
  $('#grant-list').hidden = grants.length === 0
  setRows($('#grant-list'), grants.map(grant => {
    const revoke = el('button', { type: 'button', className: 'danger', textContent: t('tokens.revoke') })
    revoke.addEventListener('click', async () => {
      if (!confirm(t('tokens.confirmSignOut', { name: grant.client_name }))) return
      await api(`api/tokens/${encodeURIComponent(grant.id)}`, { method: 'DELETE' })
      await loadTokens()
    })
    return el('tr', {}, el('td', {}, grant.client_name), el('td', {}, grant.scopes.map(level).join(', ')), el('td', {}, grant.approved_by),
      el('td', {}, dateTime(grant.created_at)), el('td', {}, grant.last_used_at ? dateTime(grant.last_used_at) : t('tokens.never_used')), el('td', {}, revoke))
  }))
}

// Sign-ins ------------------------------------------------------------------------------------
async function loadSignIns () {
  const data = await api('api/sign-ins')
  const count = $('#sign-in-count')
  count.hidden = data.waiting.length === 0
  count.textContent = data.waiting.length ? String(data.waiting.length) : ''
  $('#sign-ins-empty').hidden = data.waiting.length > 0
  $('#sign-in-list').hidden = data.waiting.length === 0
  setRows($('#sign-in-list'), data.waiting.map(request => {
    // One level (each includes the ones below) and the camera on top, as on the consent page.
    const off = scope => request.scopes_off.includes(scope) ? ` ${t('signIns.offInOptions')}` : ''
    const levelSelect = el('select', {}, ...request.levels.map(scope => el('option', { value: scope, textContent: `${level(scope)}${off(scope)}` })))
    levelSelect.setAttribute('aria-label', t('signIns.levelLabel'))
    levelSelect.value = [...request.levels].reverse().find(scope => !request.scopes_off.includes(scope)) || request.levels[0] || ''
    const camera = el('input', { type: 'checkbox', value: 'camera', checked: !request.scopes_off.includes('camera') })
    const boxes = [...(request.levels.length ? [levelSelect] : []), ...(request.camera ? [el('label', { className: 'scope' }, camera, ` ${level('camera')}${off('camera')}`)] : [])]
    const decide = async (action) => {
      const choice = { level: request.levels.length ? levelSelect.value : 'none', camera: request.camera && camera.checked }
      await api(`api/sign-ins/${encodeURIComponent(request.id)}`, { method: 'POST', body: JSON.stringify({ action, ...choice }) })
      await loadSignIns()
    }
    const approve = el('button', { type: 'button', textContent: t('signIns.approve') })
    approve.addEventListener('click', () => decide('approve').catch(showError))
    const deny = el('button', { type: 'button', className: 'danger', textContent: t('signIns.deny') })
    deny.addEventListener('click', () => decide('deny').catch(showError))
    return el('tr', {},
      el('td', {}, el('code', { className: 'short-code' }, request.short_code)), el('td', {}, request.client_name, request.client_host ? el('div', { className: 'muted' }, request.client_host) : ''), el('td', {}, request.redirect_host),
      el('td', {}, ...boxes), el('td', {}, duration(request.expires_in_s)), el('td', {}, el('div', { className: 'row' }, approve, deny)))
  }))
}

// Approvals (confirm_with: owner) ----------------------------------------------------------------
async function loadApprovals () {
  const data = await api('api/approvals')
  const waiting = data.approvals.filter(approval => approval.state === 'waiting')
  $('#approvals').hidden = waiting.length === 0
  setRows($('#approval-list'), waiting.map(approval => {
    const decide = async (decision) => {
      const answer = await api(`api/approvals/${encodeURIComponent(approval.id)}`, { method: 'POST', body: JSON.stringify({ decision }) })
      const done = answer.approval
      $('#approval-status').textContent = t(`approvals.${done.state}`, { call: done.call, error: done.error || '' }, done.state)
      await loadApprovals()
    }
    const approve = el('button', { type: 'button', textContent: t('approvals.approve') })
    approve.addEventListener('click', () => decide('approve').catch(showError))
    const deny = el('button', { type: 'button', className: 'danger', textContent: t('approvals.deny') })
    deny.addEventListener('click', () => decide('deny').catch(showError))
    return el('tr', {},
      el('td', {}, approval.asked_by, el('div', { className: 'muted' }, approval.tool)),
      el('td', {}, el('code', {}, approval.call), el('pre', { className: 'preview' }, approval.preview)),
      el('td', {}, dateTime(approval.expires_at)),
      el('td', {}, el('div', { className: 'row' }, approve, deny)))
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
  loadApprovals().catch(() => {})
  if (current !== 'sign-ins') loadSignIns().catch(() => {})
  if (current !== 'overview') loaders[current]().catch(showError)
}

function showError (err) {
  const pill = $('#connection')
  pill.textContent = t('connection.pageError', { message: err.message })
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
  flash($('#copy-status'), t('common.copied'))
})
async function regenerateToken () {
  if (!confirm(t('connect.confirmRegenerate'))) return
  const data = await api('api/token/regenerate', { method: 'POST', body: JSON.stringify({ confirm: true }) })
  revealed = data
  showingToken = true
  renderConnect(data)
  flash($('#copy-status'), t('connect.regenerated'))
}
$('#regenerate-token').addEventListener('click', () => regenerateToken().catch(showError))
$('#filter-tool').addEventListener('change', () => loadActivity().catch(showError))
$('#filter-outcome').addEventListener('change', () => loadActivity().catch(showError))

loadStrings().catch(() => {}).finally(() => {
  translatePage()
  show('overview')
  setInterval(refresh, 5000)
})
