// docs/home-assistant-contract.md lists everything the product asks of Home Assistant and the
// Supervisor. This test reads the product's code as text and fails when it sends a WebSocket command,
// a REST path, a Supervisor path, an event subscription or a named service the table does not list,
// and when the demo home does not answer a listed WebSocket command.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { commands as demoCommands } from '../../demo/ws/index.ts'

const root = new URL('../../', import.meta.url).pathname
const contract = readFileSync(join(root, 'docs/home-assistant-contract.md'), 'utf8')

/** A `{x}` in the table and a `${x}` in code both stand for "a value filled in": compare them as `*`. */
const normalize = (text: string): string => text.replace(/\$?\{[^}]*\}/g, '*')

/** The backticked names of the first column of every table under the `## ` heading that starts with `title`. */
function listed (title: string): Set<string> {
  const section = contract.split(/^## /m).find(part => part.startsWith(title))
  if (!section) throw new Error(`docs/home-assistant-contract.md has no section "${title}"`)
  const names = new Set<string>()
  for (const row of section.matchAll(/^\| (.+?) \|/gm)) {
    for (const name of row[1].matchAll(/`([^`]+)`/g)) names.add(normalize(name[1]))
  }
  return names
}

function sources (dirs: string[]): Array<{ file: string, text: string }> {
  const walk = (dir: string): string[] => readdirSync(join(root, dir)).flatMap(name => {
    const path = join(dir, name)
    return statSync(join(root, path)).isDirectory() ? walk(path) : name.endsWith('.ts') ? [path] : []
  })
  return dirs.flatMap(walk).map(file => ({
    file,
    // Comments may name a command or a path without sending it.
    text: readFileSync(join(root, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1')
  }))
}

const product = sources(['src', 'tools', 'plugins', 'routes', 'app'])

/** Every match of `pattern`'s first group in product code, normalized, with the files it is in. */
function found (pattern: RegExp, files = product): Map<string, string[]> {
  const out = new Map<string, string[]>()
  for (const { file, text } of files) {
    for (const m of text.matchAll(pattern)) {
      const name = normalize(m[1])
      out.set(name, [...(out.get(name) ?? []), file])
    }
  }
  return out
}

function unlisted (sent: Map<string, string[]>, table: Set<string>): string[] {
  return [...sent].filter(([name]) => !table.has(name)).map(([name, files]) => `${name} (${[...new Set(files)].join(', ')})`)
}

// `type:` keys that are not WebSocket commands: MCP content and schema types, client config shapes,
// a dashboard section. A new literal here is a deliberate choice, made in review.
const NOT_COMMANDS = new Set(['text', 'image', 'object', 'boolean', 'number', 'integer', 'string', 'array', 'Bearer', 'http', 'remote', 'grid', 'ref/prompt', 'ref/resource'])

t.test('every WebSocket command the product sends is in the contract', async t => {
  const sent = found(/\btype: ['`]([^'`]+)['`]/g)
  for (const name of NOT_COMMANDS) sent.delete(name)
  t.same(unlisted(sent, listed('WebSocket commands')), [], 'add each to docs/home-assistant-contract.md with its HA source')
  t.ok(sent.has('call_service') && sent.has('subscribe_entities'), 'the scan finds commands at all')
})

t.test('every event the product subscribes to is in the contract', async t => {
  const sent = found(/\bevent_type: ['`]([^'`]+)['`]/g)
  t.ok(sent.size > 0, 'the scan finds subscriptions at all')
  t.same(unlisted(sent, listed('Events')), [])
})

t.test('every Home Assistant REST path the product requests is in the contract', async t => {
  // The REST client's calls: rest.request('GET', path) and the helpers that build a path for it.
  const paths = found(/['`](\/api\/[^'`?]*)/g, product.filter(s => !s.file.startsWith('plugins/') && !s.file.startsWith('routes/') && !s.file.startsWith('app/')))
  const table = new Set([...listed('REST paths')].map(row => row.replace(/^(GET|POST|DELETE) /, '').replace(/\?.*$/, '')))
  // A path built from a helper such as configPath() reaches here as its pieces: the table's rows
  // are matched on their fixed prefix up to the first placeholder.
  const prefixes = [...table].map(row => row.split('*')[0])
  const missing = [...paths].filter(([path]) => !table.has(path) && !prefixes.some(prefix => prefix.length > '/api/'.length && path.startsWith(prefix)))
  t.ok(paths.size > 0, 'the scan finds paths at all')
  t.same(missing.map(([path, files]) => `${path} (${files.join(', ')})`), [])
})

t.test('every Supervisor path the product requests is in the contract', async t => {
  const sent = found(/['`](\/(?:addons|backups|mounts|discovery|network|info|core|os|supervisor|host|store|v2|jobs|resolution|security|auth|services|homeassistant|available_updates|refresh_updates)\b[^'`]*)['`]/g,
    product.filter(s => !s.file.startsWith('plugins/') && !s.file.startsWith('routes/')))
  const table = new Set([...listed('Supervisor paths')].map(row => row.replace(/^(GET|POST|DELETE) /, '')))
  t.ok(sent.size > 0, 'the scan finds paths at all')
  t.same(unlisted(sent, table), [])
})

// Every service the product makes Home Assistant run is named at one of two kinds of site: an object
// literal with a `domain` and a `service` (a `kind: 'service'` write, a `call_service` command, a
// request built for one), or a call of a function that forwards its arguments to one (SENDERS). The
// scan reads a name only from literals ('x', `x_${y}` as x_*, a ? 'x' : 'y'); any other expression is
// a name it cannot read, which must be declared in DYNAMIC with the services it can be. Objects handed
// to the guard as a write of another kind (a command, a config or registry edit, a backup, an undo)
// name no service and are left out by their `kind` or the function they go to.

/** The functions that send a service call from their arguments, by file ('*': any file), with the positions of domain and service. */
const SENDERS: Record<string, Record<string, [number, number]>> = {
  '*': { callOnEntity: [2, 3], readServiceResponse: [1, 2] },
  'src/policy/undo.ts': { call: [0, 1] },
  'src/policy/approval-notices.ts': { call: [0, 1] }
}

/**
 * The guard's names for writes that are no service, in the audit and service_denylist (docs/security.md,
 * "What service_denylist is matched against"): `file|domain` of the objects that carry them. Never sent.
 */
const NOT_SERVICES = new Set(['src/policy/guard.ts|\'supervisor\'', 'src/policy/guard.ts|\'undo\''])

/** Functions whose object argument is a write of a kind that is no service call. */
const NON_SERVICE_WRITERS = ['runConfigWrite', 'runRegistryWrite', 'runIntegrationWrite']

/**
 * Sites whose domain or service is an expression the scan cannot read (`file|domain|service`), with
 * every service they can be; [] for a site that only passes on a name read at another site.
 */
const DYNAMIC: Record<string, string[]> = {
  // The caller names it: ha_call_service sends whatever service it is asked for, through the guard.
  'tools/services/call-service.ts|args.domain|args.service': [],
  // The guard passes on the `kind: 'service'` writes named at their own sites, and labels the other kinds.
  'src/policy/guard.ts|request.domain|request.service': [],
  // ha_undo sends the restore calls made by call() below, read at those sites.
  'src/policy/undo.ts|c.domain|c.service': [],
  'src/policy/undo.ts|domain|off ? \'turn_off\' : \'turn_on\'': ['switch.turn_on', 'switch.turn_off', 'input_boolean.turn_on', 'input_boolean.turn_off', 'fan.turn_on', 'fan.turn_off', 'siren.turn_on', 'siren.turn_off', 'humidifier.turn_on', 'humidifier.turn_off', 'automation.turn_on', 'automation.turn_off', 'media_player.turn_on', 'media_player.turn_off', 'remote.turn_on', 'remote.turn_off', 'light.turn_on', 'light.turn_off', 'script.turn_on', 'script.turn_off'],
  'src/policy/undo.ts|domain|\'set_value\'': ['input_number.set_value', 'number.set_value', 'counter.set_value', 'input_text.set_value', 'text.set_value'],
  'src/policy/undo.ts|domain|\'select_option\'': ['input_select.select_option', 'select.select_option'],
  // Legacy notify services by name (ha_send_notification), the administrators' phones (confirm_with: owner).
  'tools/notify/send-notification.ts|\'notify\'|name': ['notify.*'],
  'src/policy/approval-notices.ts|\'notify\'|name': ['notify.mobile_app_*'],
  'tools/calendar/manage-todo.ts|\'todo\'|service': ['todo.add_item', 'todo.update_item', 'todo.remove_item'],
  'tools/system/manage-update.ts|\'update\'|args.action': ['update.skip', 'update.clear_skipped'],
  // ha_restart: reload_all, or the reload of a domain it found in get_services.
  'tools/system/restart.ts|domain ?? \'homeassistant\'|domain === undefined ? \'reload_all\' : \'reload\'': ['homeassistant.reload_all', '*.reload']
}

/** The text of a literal expression as names ('x', `x_${y}` as x_*, a ? 'x' : 'y'), or undefined when it is no literal. */
function literalNames (expression: string): string[] | undefined {
  const single = /^'([a-z0-9_]+)'$/.exec(expression)
  if (single) return [single[1] as string]
  if (/^`[a-z0-9_${}.]+`$/.test(expression) && !expression.includes('.')) return [normalize(expression.slice(1, -1))]
  const choice = /^[^?']*(?:'[a-z0-9_]+'[^?']*)? \? '([a-z0-9_]+)' : '([a-z0-9_]+)'$/.exec(expression)
  if (choice) return [choice[1] as string, choice[2] as string]
  return undefined
}

/** The top-level entries of an object literal or argument list (its text between the brackets), split on commas. */
function topLevel (inner: string): string[] {
  const parts: string[] = []
  let depth = 0
  let quote = ''
  let current = ''
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i] as string
    if (quote !== '') {
      if (c === '\\') { current += c + (inner[++i] ?? ''); continue }
      if (c === quote) quote = ''
      else if (quote === '`' && c === '$' && inner[i + 1] === '{') depth++
    } else if (c === '\'' || c === '"' || c === '`') quote = c
    else if ('([{'.includes(c)) depth++
    else if (')]}'.includes(c)) depth--
    if (c === '}' && quote === '`') depth--
    if (c === ',' && depth === 0 && quote === '') { parts.push(current.trim()); current = ''; continue }
    current += c
  }
  if (current.trim() !== '') parts.push(current.trim())
  return parts
}

/** The index just past the bracket that closes the one at `open`. */
function closing (text: string, open: number): number {
  let depth = 0
  let quote = ''
  for (let i = open; i < text.length; i++) {
    const c = text[i] as string
    if (quote !== '') {
      if (c === '\\') { i++; continue }
      if (c === quote) quote = ''
      continue
    }
    if (c === '\'' || c === '"' || c === '`') quote = c
    else if ('([{'.includes(c)) depth++
    else if (')]}'.includes(c) && --depth === 0) return i + 1
  }
  return text.length
}

interface Site { file: string, domain: string, service: string }

/** Every service-naming site in product code: object literals with both keys, and calls of the SENDERS. */
function serviceSites (): { sites: Site[], forwarders: string[] } {
  const sites: Site[] = []
  const forwarders: string[] = []
  for (const { file, text } of product) {
    for (const open of [...text.matchAll(/\{/g)].map(m => m.index)) {
      const body = text.slice(open + 1, closing(text, open) - 1)
      const entries = new Map(topLevel(body).map(entry => { const m = /^([a-z_]+)(?::\s*([\s\S]+))?$/.exec(entry); return m ? [m[1] as string, (m[2] ?? m[1]) as string] : ['', ''] }))
      const kind = entries.get('kind')
      if (kind !== undefined && kind !== '\'service\'') continue
      if (NON_SERVICE_WRITERS.some(writer => new RegExp(`\\b${writer}\\(\\s*\\w+,\\s*$`).test(text.slice(0, open)))) continue
      const domain = entries.get('domain')
      const service = entries.get('service')
      // Without a kind or a type, an object names a service when its domain is written out: the guard's
      // own records (`domain: request.domain`), type literals and log fields pass names on or describe them.
      const sends = kind !== undefined || entries.get('type') === '\'call_service\'' || literalNames(domain ?? '') !== undefined
      // `{ domain, service }` passes on a function's own arguments: the SENDERS calls name them.
      const passedOn = domain === 'domain' && service === 'service'
      if (NOT_SERVICES.has(`${file}|${domain ?? ''}`)) continue
      if (domain !== undefined && service !== undefined && sends && !passedOn) sites.push({ file, domain, service })
      // A call_service command or service write whose names come from elsewhere: its file must be known to forward them.
      else if (entries.get('type') === '\'call_service\'' || kind === '\'service\'') forwarders.push(file)
    }
    const senders = { ...SENDERS['*'], ...SENDERS[file] }
    for (const [name, [d, s]] of Object.entries(senders)) {
      for (const m of text.matchAll(new RegExp(`\\b${name}\\(`, 'g'))) {
        const open = m.index + name.length
        const args = topLevel(text.slice(open + 1, closing(text, open) - 1))
        if (args.length > Math.max(d, s) && !/^\w+: /.test(args[d] as string)) sites.push({ file, domain: args[d] as string, service: args[s] as string })
      }
    }
  }
  return { sites, forwarders }
}

t.test('every service the product makes Home Assistant run is in the contract', async t => {
  const { sites, forwarders } = serviceSites()
  const named = new Map<string, Set<string>>()
  const unreadable: string[] = []
  const declared = new Set<string>()
  for (const site of sites) {
    const domains = literalNames(site.domain)
    const services = literalNames(site.service)
    const key = `${site.file}|${site.domain}|${site.service}`
    let names: string[]
    if (domains && services) names = domains.flatMap(d => services.map(s => `${d}.${s}`))
    else if (key in DYNAMIC) { names = DYNAMIC[key] as string[]; declared.add(key) } else { unreadable.push(key); continue }
    for (const name of names) named.set(name, (named.get(name) ?? new Set()).add(site.file))
  }
  t.same(unreadable, [], 'a service the scan cannot read: name it literally, or declare what it can be in DYNAMIC')
  t.same(Object.keys(DYNAMIC).filter(key => !declared.has(key)), [], 'every DYNAMIC entry is a site the scan finds')
  const forwarding = new Set(['src/policy/guard.ts', 'src/policy/undo.ts', 'src/policy/approval-notices.ts', 'tools/_shared/read-calls.ts', 'tools/_shared/write.ts', 'tools/notify/send-notification.ts', 'tools/notify/announce.ts'])
  t.same([...new Set(forwarders)].filter(file => !forwarding.has(file)), [], 'a service call whose names come from elsewhere is in a file known to forward them')
  const table = [...listed('Services')]
  // A row with a placeholder (`todo.{service}`) covers the names it stands for; a name the scan made from a template matches only the same row.
  const covered = (name: string): boolean => table.includes(name) || (!name.includes('*') && table.some(row => row.includes('*') && new RegExp(`^${row.replace(/[.]/g, '\\.').replace(/\*/g, '[a-z0-9_]+')}$`).test(name)))
  t.ok(named.size > 10, 'the scan finds services at all')
  t.same([...named].filter(([name]) => !covered(name)).map(([name, files]) => `${name} (${[...files].join(', ')})`), [])
})

t.test('the service scan reads names from literals only', async t => {
  const fill = '$' + '{a}'
  t.same(literalNames('\'turn_on\''), ['turn_on'])
  t.same(literalNames(`\`addon_${fill}\``), ['addon_*'], 'a template is its placeholder row')
  t.same(literalNames('args.enabled ? \'turn_on\' : \'turn_off\''), ['turn_on', 'turn_off'])
  t.same(literalNames('value === \'locked\' ? \'lock\' : \'unlock\''), ['lock', 'unlock'])
  t.equal(literalNames('name'), undefined, 'a variable is no service name: it must be declared in DYNAMIC')
  t.same(topLevel(`kind: 'service', domain: 'light', service: \`x_${fill}\`, data: { a: 1, b: 2 }, ...rest`), ['kind: \'service\'', 'domain: \'light\'', `service: \`x_${fill}\``, 'data: { a: 1, b: 2 }', '...rest'])
})

t.test('the demo home answers every WebSocket command of the contract', async t => {
  const served = new Set(Object.keys(demoCommands).map(normalize))
  // A `{kind}/create` row is served when the demo answers it for some kind.
  const servedShape = (name: string): boolean => served.has(name) || (name.startsWith('*') && [...served].some(type => type.endsWith(name.slice(1))))
  t.same([...listed('WebSocket commands')].filter(name => !servedShape(name)), [])
})
