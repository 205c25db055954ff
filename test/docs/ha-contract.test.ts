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

// Names the guard uses for writes that are not Home Assistant services (registry edits, dashboards,
// undo, Supervisor operations): they appear in the audit, and are never sent as a service call.
const NOT_SERVICES = new Set(['lovelace', 'entity_registry', 'device_registry', 'supervisor', 'undo', 'calendar', 'repairs'])

t.test('every service the product names in its tools is in the contract', async t => {
  const named = new Map<string, string[]>()
  const add = (name: string, file: string): void => { named.set(normalize(name), [...(named.get(normalize(name)) ?? []), file]) }
  for (const { file, text } of product) {
    for (const m of text.matchAll(/\bdomain: '([a-z_]+)',?\s*(?:[a-z_]+: [^,\n]+,\s*)*?service: ['`]?([a-z_${}.]+)['`]?/g)) {
      if (!NOT_SERVICES.has(m[1])) add(`${m[1]}.${m[2].startsWith("'") ? m[2].slice(1) : m[2]}`, file)
    }
    for (const m of text.matchAll(/readServiceResponse\(\w+, '([a-z_]+)', '([a-z_]+)'/g)) add(`${m[1]}.${m[2]}`, file)
  }
  const table = listed('Services')
  const matches = (name: string): boolean => table.has(name) || table.has(name.replace(/\.[^.]+$/, '.*'))
  t.ok(named.size > 0, 'the scan finds services at all')
  t.same([...named].filter(([name]) => !matches(name)).map(([name, files]) => `${name} (${files.join(', ')})`), [])
})

t.test('the demo home answers every WebSocket command of the contract', async t => {
  const served = new Set(Object.keys(demoCommands).map(normalize))
  // A `{kind}/create` row is served when the demo answers it for some kind.
  const servedShape = (name: string): boolean => served.has(name) || (name.startsWith('*') && [...served].some(type => type.endsWith(name.slice(1))))
  t.same([...listed('WebSocket commands')].filter(name => !servedShape(name)), [])
})
