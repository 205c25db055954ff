// config.yaml is read by the Supervisor and by the add-on linter in CI. A mistake here does not
// show up in any other test: the add-on vanishes from the store, refuses to save its options or
// fails lint. These checks follow the Supervisor's validation and the linter's extra rules.
import t from 'tap'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'
import { CONSENT_STRINGS } from '../../src/oauth/consent-strings.ts'
import { DEFAULT_OPTIONS, LOG_LEVELS } from '../../src/options.ts'
import { isRecord } from '../../src/shape.ts'
import { loadToolCatalog } from '../../src/mcp/runtime/registry.ts'
import { TOOLS_DIR } from '../../app/tools-dir.ts'
import { SHIPPED_ROLE } from '../../tools/_shared/supervisor-role.ts'
import { startDemoHome } from '../../demo/index.ts'

const root = fileURLToPath(new URL('../../', import.meta.url))
const readText = (path: string): string => readFileSync(root + path, 'utf8')
const readYaml = (path: string): Record<string, unknown> => parse(readText(path)) as Record<string, unknown>
const config = readYaml('config.yaml')
const packageJson = JSON.parse(readText('package.json')) as { version: string }
const options = config.options as Record<string, unknown>
const schema = config.schema as Record<string, unknown>

// Keys the Supervisor knows (supervisor/apps/validate.py); anything else is silently dropped
// by the Supervisor and rejected by the linter's JSON schema, so a typo would go unnoticed.
const KNOWN_KEYS = new Set([
  'name', 'version', 'slug', 'description', 'arch', 'machine', 'url', 'startup', 'boot', 'init', 'stage',
  'ports', 'ports_description', 'webui', 'ingress', 'ingress_port', 'ingress_entry', 'ingress_stream',
  'panel_icon', 'panel_title', 'panel_admin', 'homeassistant', 'host_network', 'host_pid', 'host_ipc',
  'host_uts', 'host_dbus', 'devices', 'udev', 'tmpfs', 'map', 'environment', 'privileged', 'apparmor',
  'full_access', 'audio', 'video', 'gpio', 'usb', 'uart', 'devicetree', 'kernel_modules', 'realtime',
  'journald', 'hassio_api', 'hassio_role', 'homeassistant_api', 'docker_api', 'auth_api', 'stdin',
  'legacy', 'services', 'discovery', 'backup', 'backup_pre', 'backup_post', 'backup_exclude', 'options',
  'schema', 'image', 'timeout', 'ulimits', 'breaking_versions'
])

// Keys the linter refuses outright (B9): watchdog is obsolete (the image has a HEALTHCHECK),
// advanced and codenotary are deprecated.
const REFUSED_KEYS = ['watchdog', 'advanced', 'codenotary']

// Supervisor defaults; the linter fails on any key that merely restates one.
const SUPERVISOR_DEFAULTS: Record<string, unknown> = {
  startup: 'application',
  boot: 'auto',
  init: true,
  stage: 'stable',
  ingress: false,
  ingress_port: 8099,
  ingress_entry: '/',
  ingress_stream: false,
  panel_icon: 'mdi:puzzle',
  panel_admin: true,
  host_network: false,
  host_pid: false,
  host_ipc: false,
  host_uts: false,
  host_dbus: false,
  apparmor: true,
  full_access: false,
  audio: false,
  video: false,
  gpio: false,
  usb: false,
  uart: false,
  devicetree: false,
  kernel_modules: false,
  realtime: false,
  journald: false,
  hassio_api: false,
  hassio_role: 'default',
  homeassistant_api: false,
  docker_api: false,
  auth_api: false,
  stdin: false,
  legacy: false,
  backup: 'hot',
  timeout: 10,
  tmpfs: false,
  options: {},
  schema: {},
  ports: {},
  map: [],
  privileged: [],
  devices: [],
  environment: {},
  services: [],
  discovery: [],
  backup_exclude: []
}

// The option type grammar of the Supervisor (supervisor/apps/options.py), one element: a base
// type with optional bounds or argument, optionally followed by "?" (not required).
const SCHEMA_ELEMENT = new RegExp('^(?:' + [
  'bool', 'email', 'url', 'port',
  String.raw`str(?:\((?<strMin>\d+)?,(?<strMax>\d+)?\))?`,
  String.raw`password(?:\((?<pwMin>\d+)?,(?<pwMax>\d+)?\))?`,
  String.raw`int(?:\((?<intMin>-?\d+)?,(?<intMax>-?\d+)?\))?`,
  String.raw`float(?:\((?<floatMin>-?[\d.]+)?,(?<floatMax>-?[\d.]+)?\))?`,
  String.raw`device(?:\(subsystem=[a-z]+\))?`,
  String.raw`match\((?<pattern>.+)\)`,
  String.raw`list\((?<choices>[^|()]+(?:\|[^|()]+)*)\)`
].join('|') + String.raw`)(?<optional>\?)?$`)

/** Why `value` would be refused by the Supervisor for the schema `element`, or undefined. */
function violation (value: unknown, element: unknown): string | undefined {
  if (Array.isArray(element)) {
    if (element.length !== 1) return 'a list schema holds exactly one element type'
    if (Array.isArray(element[0])) return 'a list may not directly contain a list'
    if (!Array.isArray(value)) return `expected a list, got ${JSON.stringify(value)}`
    for (const item of value) {
      const problem = violation(item, element[0])
      if (problem !== undefined) return `item ${JSON.stringify(item)}: ${problem}`
    }
    return undefined
  }
  if (typeof element !== 'string') return `unsupported schema ${JSON.stringify(element)}`
  const match = SCHEMA_ELEMENT.exec(element)
  if (match === null) return `"${element}" is not in the Supervisor's option grammar`
  const groups = match.groups ?? {}
  const base = element.replace(/[(?].*$/, '')
  const inRange = (n: number, min?: string, max?: string): boolean =>
    (min === undefined || n >= Number(min)) && (max === undefined || n <= Number(max))
  switch (base) {
    case 'bool': return typeof value === 'boolean' ? undefined : 'expected a boolean'
    case 'str': return typeof value === 'string' && inRange(value.length, groups.strMin, groups.strMax) ? undefined : 'expected a string within bounds'
    case 'password': return typeof value === 'string' && inRange(value.length, groups.pwMin, groups.pwMax) ? undefined : 'expected a string within bounds'
    case 'int': return Number.isInteger(value) && inRange(value as number, groups.intMin, groups.intMax) ? undefined : 'expected an integer within bounds'
    case 'float': return typeof value === 'number' && inRange(value, groups.floatMin, groups.floatMax) ? undefined : 'expected a number within bounds'
    case 'port': return Number.isInteger(value) && inRange(value as number, '1', '65535') ? undefined : 'expected a port'
    case 'email': return typeof value === 'string' && /^[^@\s]+@[^@\s]+$/.test(value) ? undefined : 'expected an email address'
    case 'url': return typeof value === 'string' && URL.canParse(value) ? undefined : 'expected a URL'
    case 'device': return typeof value === 'string' ? undefined : 'expected a device path'
    case 'match': return typeof value === 'string' && new RegExp(`^(?:${groups.pattern})$`).test(value) ? undefined : `does not match ${groups.pattern}`
    case 'list': return (groups.choices ?? '').split('|').includes(String(value)) ? undefined : `not one of ${groups.choices}`
    default: return `unknown type ${base}`
  }
}

function pngSize (path: string): { width: number, height: number } {
  const bytes = readFileSync(root + path)
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  if (!bytes.subarray(0, 8).equals(signature)) throw new Error(`${path} is not a PNG file`)
  if (bytes.toString('ascii', 12, 16) !== 'IHDR') throw new Error(`${path} does not start with an IHDR chunk`)
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) }
}

t.test('required keys and identity', async (t) => {
  for (const key of ['name', 'version', 'slug', 'description']) {
    t.type(config[key], 'string', `${key} is a string`)
    t.ok(String(config[key]).trim().length > 0, `${key} is not empty`)
  }
  t.match(config.slug, /^[-_.A-Za-z0-9]+$/, 'slug uses only the characters the Supervisor allows')
  t.equal(config.slug, 'ha_mcp')
  t.equal(config.version, packageJson.version, 'config.yaml version equals package.json version')
  t.match(config.version, /^\d+\.\d+\.\d+$/, 'version is a plain release number (it is also the image tag)')
  t.same([...(config.arch as string[])].sort(), ['aarch64', 'amd64'], 'only the 64-bit architectures we build')
  t.match(config.image, /^ghcr\.io\/[a-z0-9-]+\/(?:\{arch\}-)?[a-z0-9-]+$/, 'image is a ghcr.io name (tag comes from version)')
  t.match(config.url, /^https:\/\//)
})

t.test('no unknown, refused or default-valued keys', async (t) => {
  const unknown = Object.keys(config).filter((key) => !KNOWN_KEYS.has(key))
  t.same(unknown, [], 'every key is one the Supervisor knows')
  for (const key of REFUSED_KEYS) t.notOk(key in config, `${key} is refused by the linter`)
  const restated = Object.keys(config).filter((key) =>
    key in SUPERVISOR_DEFAULTS && JSON.stringify(config[key]) === JSON.stringify(SUPERVISOR_DEFAULTS[key]))
  t.same(restated, [], 'no key repeats a Supervisor default')
  t.notOk(existsSync(root + 'build.yaml') || existsSync(root + 'build.json'), 'no retired build.yaml')
})

t.test('runtime contract with the image', async (t) => {
  t.equal(config.init, false, 'init is off: s6-overlay in the base image must be PID 1')
  t.equal(config.homeassistant_api, true, 'Home Assistant API through the Supervisor proxy')
  t.equal(config.hassio_api, true)
  // The smallest role that reaches /backups*: "default" only reaches /<x>/info, "manager" would add add-on control.
  t.equal(config.hassio_role, 'backup', 'backup role: list and make backups, nothing more')
  t.ok((config.discovery as string[]).includes('mcp'), 'announces an mcp discovery service')
})

t.test('ports and ingress', async (t) => {
  const ports = config.ports as Record<string, unknown>
  for (const [key, hostPort] of Object.entries(ports)) {
    t.match(key, /^\d{1,5}\/(?:tcp|udp)$/, `${key} has the form port/protocol`)
    t.ok(hostPort === null || (Number.isInteger(hostPort) && (hostPort as number) >= 1 && (hostPort as number) <= 65535), `${key} maps to a valid host port`)
  }
  t.equal(ports['9583/tcp'], 9583, 'MCP endpoint published on 9583')
  t.same(Object.keys(config.ports_description as object), Object.keys(ports), 'every port is described')
  t.equal(config.ingress, true)
  t.equal(config.ingress_port, 9584, 'ingress page port')
  t.notOk('webui' in config, 'no webui next to ingress')
  t.match(config.panel_icon, /^mdi:[a-z0-9-]+$/)
  t.type(config.panel_title, 'string')
})

t.test('options and schema', async (t) => {
  t.same(Object.keys(schema).sort(), Object.keys(options).sort(), 'every option has a schema entry and vice versa')
  t.same(options, DEFAULT_OPTIONS, 'options are the defaults the server applies (src/options.ts)')
  for (const [key, element] of Object.entries(schema)) {
    t.equal(violation(options[key], element), undefined, `default of ${key} is valid for ${JSON.stringify(element)}`)
  }
  t.equal(schema.log_level, `list(${LOG_LEVELS.join('|')})`, 'log_level offers exactly the server log levels')
  t.match(schema.api_token, /^password/, 'the token is masked in the UI')
})

t.test('the grammar check itself refuses what the Supervisor refuses', async (t) => {
  t.equal(violation(true, 'bool'), undefined)
  t.equal(violation('debug', 'list(info|debug)?'), undefined)
  t.equal(violation(5, 'int(1,10)'), undefined)
  t.equal(violation('ab', 'str(,5)'), undefined)
  t.equal(violation(['a'], ['str']), undefined)
  t.not(violation('yes', 'bool'), undefined, 'wrong type')
  t.not(violation('verbose', 'list(info|debug)'), undefined, 'value outside the list')
  t.not(violation(11, 'int(1,10)'), undefined, 'out of bounds')
  t.not(violation('x', 'string'), undefined, 'unknown type name')
  t.not(violation('x', 'list()'), undefined, 'empty list')
  t.not(violation([['a']], [['str']]), undefined, 'list of lists')
  t.not(violation('a', ['str']), undefined, 'scalar for a list')
})

// The owner's language: the Supervisor shows translations/<lang>.yaml for the browser's language.
const TRANSLATIONS = ['en', 'de', 'fr', 'es', 'nl']

t.test('translations cover every option and port, and nothing else, in every language', async (t) => {
  t.same(readdirSync(root + 'translations').sort(), TRANSLATIONS.map(lang => `${lang}.yaml`).sort(), 'one file per language')
  const englishNames = Object.fromEntries(Object.entries(readYaml('translations/en.yaml').configuration as Record<string, { name: string }>).map(([key, entry]) => [key, entry.name]))
  for (const lang of TRANSLATIONS) {
    const translations = readYaml(`translations/${lang}.yaml`)
    const configuration = translations.configuration as Record<string, unknown>
    t.same(Object.keys(configuration).sort(), Object.keys(options).sort(), `${lang}: every option`)
    for (const [key, entry] of Object.entries(configuration)) {
      t.ok(isRecord(entry) && typeof entry.name === 'string' && entry.name.length > 0, `${lang}: ${key} has a name`)
      t.ok(isRecord(entry) && typeof entry.description === 'string' && entry.description.length > 0, `${lang}: ${key} has a description`)
      if (lang !== 'en') t.not(isRecord(entry) && entry.name, englishNames[key], `${lang}: ${key} is translated, not copied`)
    }
    t.same(Object.keys(translations.network as object), Object.keys(config.ports as object), `${lang}: every port has a translated description`)
  }
})

/** What each configuration tool changes, as the allow_config_write text names it in each language. */
const CONFIG_SUBJECTS: Record<string, Record<string, string>> = {
  automation: { en: 'automation', de: 'Automation', fr: 'automatisation', es: 'automatizacion', nl: 'automatisering' },
  script: { en: 'script', de: 'Skript', fr: 'script', es: 'script', nl: 'script' },
  blueprint: { en: 'blueprint', de: 'Blueprint', fr: 'blueprint', es: 'blueprint', nl: 'blueprint' },
  scene: { en: 'scene', de: 'Szene', fr: 'scène', es: 'escena', nl: 'scène' },
  calendar: { en: 'calendar event', de: 'Kalendertermin', fr: 'événements d\'agenda', es: 'eventos de calendario', nl: 'agenda-afspraken' },
  dashboard: { en: 'dashboard', de: 'Dashboard', fr: 'tableaux de bord', es: 'paneles', nl: 'dashboard' },
  backup: { en: 'backup', de: 'Backup', fr: 'sauvegarde', es: 'copias de seguridad', nl: 'back-up' },
  registry: { en: 'areas, floors, labels, categories, zones', de: 'Bereiche, Etagen, Labels, Kategorien, Zonen', fr: 'pièces, étages, étiquettes, catégories, zones', es: 'áreas, plantas, etiquetas, categorías, zonas', nl: 'ruimtes, verdiepingen, labels, categorieën, zones' },
  entities: { en: 'entities', de: 'Entitäten', fr: 'entités', es: 'entidades', nl: 'entiteiten' },
  device: { en: 'devices', de: 'Geräte', fr: 'appareils', es: 'dispositivos', nl: 'apparaten' },
  energy: { en: 'energy', de: 'Energie', fr: 'Énergie', es: 'energía', nl: 'energie' },
  integrations: { en: 'integrations', de: 'Integrationen', fr: 'intégrations', es: 'integraciones', nl: 'integraties' },
  updates: { en: 'updates', de: 'Updates', fr: 'mises à jour', es: 'actualizaciones', nl: 'updates' },
  repairs: { en: 'repairs', de: 'Reparaturen', fr: 'réparations', es: 'reparaciones', nl: 'reparaties' },
  restart: { en: 'restart Home Assistant', de: 'Home Assistant nach seiner Konfigurationsprüfung neu starten', fr: 'redémarrent Home Assistant', es: 'reinician Home Assistant', nl: 'Home Assistant herstarten' }
}
const TOOL_SUBJECTS: Record<string, string[]> = {
  ha_add_dashboard_card: ['dashboard'],
  ha_create_automation: ['automation'],
  ha_update_automation: ['automation'],
  ha_delete_automation: ['automation'],
  ha_create_from_blueprint: ['blueprint'],
  ha_create_script: ['script'],
  ha_update_script: ['script'],
  ha_delete_script: ['script'],
  ha_manage_registry: ['registry'],
  ha_update_entities: ['entities'],
  ha_update_device: ['device'],
  ha_manage_integration: ['integrations'],
  ha_manage_update: ['updates'],
  ha_manage_repair: ['repairs'],
  ha_restart: ['restart'],
  // Undoes what the other tools did: nothing of its own to name.
  ha_undo: [],
  // Listed only with its own option, allow_addon_control, whose text names it.
  ha_manage_addon: []
}

t.test('the allow_config_write text names everything it switches on, in every language', async (t) => {
  const catalog = await loadToolCatalog(TOOLS_DIR)
  const subjects = new Set<string>()
  for (const tool of catalog.tools) {
    const { name, kind, alsoKind } = tool.definition
    if (kind !== 'manage' && alsoKind !== 'manage') continue
    if (tool.byArgument) {
      for (const value of Object.keys(tool.byArgument.byValue)) {
        t.ok(value in CONFIG_SUBJECTS, `${name} ${value}: named in CONFIG_SUBJECTS`)
        subjects.add(value)
      }
    } else {
      t.ok(name in TOOL_SUBJECTS, `${name}: a new configuration tool; say in the option text what it changes, then add it here`)
      for (const subject of TOOL_SUBJECTS[name] ?? []) subjects.add(subject)
    }
  }
  for (const lang of TRANSLATIONS) {
    const text = ((readYaml(`translations/${lang}.yaml`).configuration as Record<string, { description: string }>).allow_config_write?.description ?? '').normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
    for (const subject of subjects) {
      const words = CONFIG_SUBJECTS[subject]?.[lang] ?? subject
      t.ok(text.includes(words.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase()), `${lang}: names ${subject} ("${words}")`)
    }
  }
})

t.test('files the Supervisor reads next to config.yaml', async (t) => {
  for (const file of ['DOCS.md', 'CHANGELOG.md', 'icon.png', 'logo.png', 'repository.yaml', 'translations/en.yaml', 'Dockerfile', 'apparmor.txt', 'addon/run.sh']) {
    t.ok(existsSync(root + file), `${file} exists`)
  }
  const icon = pngSize('icon.png')
  t.equal(icon.width, icon.height, 'icon is square')
  t.ok(icon.width >= 96 && icon.width <= 256, `icon is about 128 px (${icon.width})`)
  const logo = pngSize('logo.png')
  t.ok(logo.width / logo.height >= 2 && logo.width / logo.height <= 3, `logo is wide, about 250x100 (${logo.width}x${logo.height})`)
  t.ok(logo.width <= 500, 'logo is not oversized')
  const repository = readYaml('repository.yaml')
  t.type(repository.name, 'string', 'repository.yaml has a name')
  t.match(repository.url, /^https:\/\//)
  t.match(readText('CHANGELOG.md'), new RegExp(`^## \\[${packageJson.version.replaceAll('.', '\\.')}\\]`, 'm'), 'CHANGELOG has an entry for this version')
})

t.test('the Supervisor role and the minimum Home Assistant version', async (t) => {
  t.equal(config.hassio_role, SHIPPED_ROLE, 'the role the tools plan for is the role the add-on asks for')
  // supervisor apps/validate.py: `homeassistant` is a version tag; the add-on cannot be installed on an older Core.
  t.match(config.homeassistant, /^20\d\d\.\d{1,2}\.\d+$/)
  t.equal(config.homeassistant, '2024.10.0', 'validate_config with plural keys (Core 2024.10) is the newest thing the add-on cannot do without')
  t.match(readText('docs/installation.md'), new RegExp(`Home Assistant Core ${(config.homeassistant as string).replace(/\.0$/, '').replace('.', '\\.')} or newer`), 'the docs say the same minimum')

  // The demo home answers as the shipped role does: /backups yes, /addons and /mounts no.
  const home = await startDemoHome({ token: 'demo-token-for-the-role-check' })
  t.teardown(() => home.close())
  const status = async (path: string): Promise<number> => (await fetch(`${home.supervisorUrl}${path}`, { headers: { authorization: `Bearer ${home.supervisorToken}` } })).status
  t.same(await Promise.all(['/backups', '/supervisor/info', '/addons', '/mounts', '/host/reboot'].map(status)), [200, 200, 403, 403, 403])
})

t.test('every text that sends the owner to the sidebar names the entry as config.yaml does (panel_title)', async t => {
  const title = String(config.panel_title)
  t.equal(title, 'MCP')
  for (const [lang, words] of Object.entries(CONSENT_STRINGS)) {
    for (const key of ['checkCode', 'approveInPanel', 'orHere'] as const) {
      t.ok(words[key].includes(title), `${lang}.${key} names the sidebar entry ${title}`)
      t.notMatch(words[key], /MCP[ -]Server|Serveur MCP|Servidor MCP/i, `${lang}.${key} does not call it the server`)
    }
  }
})

t.test('a first-time owner reads the requirements, a safe setup and a check in DOCS.md and installation.md', async (t) => {
  const minimum = String(config.homeassistant).replace(/\.0$/, '')
  for (const file of ['DOCS.md', 'docs/installation.md']) {
    const text = readText(file).replace(/\s+/g, ' ')
    t.ok(text.includes(`Core ${minimum} or newer`), `${file}: the minimum Core config.yaml declares (${minimum})`)
    t.match(text, /administrators only/, `${file}: the panel is admin-only (panel_admin keeps its default)`)
    t.match(text, /conversation agent backed by a language model/, `${file}: Assist needs an LLM agent`)
    t.match(text, /entity_denylist[^.]*lock\.\*[^.]*alarm_control_panel\.\*[^.]*garage/, `${file}: writes with a denylist for locks, alarm and garage`)
    t.match(text, /named token/, `${file}: one named token per assistant`)
    t.match(text, /HA_IP:9583\/health/, `${file}: the two-minute check`)
    t.match(text, /Nabu Casa/, `${file}: which address, when Home Assistant is reached through the cloud`)
  }
  t.notOk('panel_admin' in config, 'config.yaml leaves panel_admin at its default, true')
})
