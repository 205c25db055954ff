import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'

const PUBLIC = join(import.meta.dirname, '../../ingress/public')
const read = (file: string): string => readFileSync(join(PUBLIC, file), 'utf8')
const catalogue = (lang: string): Record<string, string> => JSON.parse(read(`i18n/${lang}.json`)) as Record<string, string>
const placeholders = (text: string): string[] => [...text.matchAll(/\{(\w+)\}/g)].map(m => m[1] as string).sort()

const app = read('app.js')
const languages = JSON.parse((/const LANGUAGES = (\[[^\]]*\])/.exec(app)?.[1] ?? '[]').replace(/'/g, '"')) as string[]
const english = catalogue('en')

t.test('the page offers English, German, French, Spanish and Dutch, each with a file', async t => {
  t.same([...languages].sort(), ['de', 'en', 'es', 'fr', 'nl'])
  t.same(readdirSync(join(PUBLIC, 'i18n')).map(f => f.replace(/\.json$/, '')).sort(), [...languages].sort(), 'one file per language, none unlisted')
})

t.test('every language has every English string, with the same placeholders, and nothing else', async t => {
  for (const lang of languages) {
    const strings = catalogue(lang)
    t.same(Object.keys(strings).sort(), Object.keys(english).sort(), `${lang}: the same keys as English`)
    for (const [key, text] of Object.entries(strings)) {
      if (typeof text !== 'string' || text.trim() === '') t.fail(`${lang}: ${key} is empty`)
      if (key in english) t.same(placeholders(text), placeholders(english[key] as string), `${lang}: ${key} keeps its placeholders`)
    }
  }
})

t.test('every key the page uses is in the English file', async t => {
  const html = read('index.html')
  const used = new Set([
    ...[...html.matchAll(/data-i18n(?:-html|-placeholder)?="([^"]+)"/g)].map(m => m[1] as string),
    // Literal keys in app.js: t('tab.overview'), t('tokens.levelOff', ...).
    ...[...app.matchAll(/\bt\('([a-zA-Z_]+\.[a-zA-Z_.-]+)'/g)].map(m => m[1] as string)
  ])
  t.ok(used.size > 100, `found the page's keys (${used.size})`)
  t.same([...used].filter(key => !(key in english)), [], 'no key without an English string')
  // Keys built from server data: one per kind, outcome, level and gate the server sends.
  for (const prefix of ['kind.read', 'kind.write', 'kind.manage', 'kind.camera', 'level.none', 'level.read', 'level.write', 'level.manage', 'level.camera',
    'outcome.allowed', 'outcome.refused', 'outcome.dry_run', 'outcome.confirmation_asked', 'outcome.confirmation_given', 'outcome.failed',
    'gate.allow_write', 'gate.allow_config_write', 'gate.allow_camera',
    'problem.item_dropped', 'problem.default_used', 'problem.writes_off', 'problem.strictest_used']) {
    t.ok(prefix in english, `${prefix} is translated`)
  }
})

t.test('the English strings in index.html are the English file\'s (what shows before the file loads)', async t => {
  const html = read('index.html')
  for (const match of html.matchAll(/data-i18n="([^"]+)"[^>]*>([^<]*)</g)) {
    const [, key, text] = match as unknown as [string, string, string]
    t.equal(text.trim(), english[key], key)
  }
})
