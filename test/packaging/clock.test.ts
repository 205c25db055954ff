// One clock (src/clock.ts): only realClock reads the wall clock or starts a global timer. Everything
// else gets a Clock (or its `now`/`schedule`) from the composition root, so a test can move time.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'

const ROOT = join(import.meta.dirname, '../..')
const CLOCK = 'src/clock.ts'
/** Reading the time or waiting on it without the injected clock. `new Date(x)` and `Date.parse` are fine. */
const REAL_TIME: Array<[RegExp, string]> = [
  [/\bDate\.now\b/, 'Date.now'],
  [/\bnew Date\(\s*\)/, 'new Date()'],
  [/(?<![\w.#])(?:globalThis\.)?(?:setTimeout|setInterval|clearTimeout|clearInterval)\b/, 'a global timer'],
  [/['"`](?:node:)?timers(?:\/promises)?['"`]/, 'node:timers']
]
/** What may stay, and why: a hit inside `within` is excused, one anywhere else in the file is not. */
const ALLOWED: Record<string, { why: string, within: RegExp }> = {
  'src/oauth/consent-page.ts': { why: 'the status poll is a script the page sends to the browser; it runs there, not in the server', within: /<script[\s\S]*?<\/script>/g }
}

function files (dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' }).filter(f => f.endsWith('.ts')).map(f => join(dir, f))
}

/** `file:line: what` for each use of real time in `text`, after blanking what the allow-list excuses. */
export function realTimeUses (file: string, text: string): string[] {
  const allowed = ALLOWED[file]
  const checked = allowed ? text.replace(allowed.within, region => region.replace(/[^\n]/g, ' ')) : text
  return checked.split('\n').flatMap((line, i) => REAL_TIME.filter(([pattern]) => pattern.test(line)).map(([, what]) => `${file}:${i + 1}: ${what}`))
}

t.test(`nothing in src/, plugins/, routes/, tools/ or app/ reads real time or starts a timer but ${CLOCK}`, async t => {
  const uses = ['src', 'plugins', 'routes', 'tools', 'app'].flatMap(files).filter(file => file !== CLOCK)
    .flatMap(file => realTimeUses(file, readFileSync(join(ROOT, file), 'utf8')))
  t.same(uses, [], 'take a Clock (src/clock.ts) from the composition root instead: ctx.clock in a tool, the services\' clock in a plugin')
})

t.test('the allow-list is still needed, and the check catches what it is for', async t => {
  for (const [file, { why, within }] of Object.entries(ALLOWED)) {
    const text = readFileSync(join(ROOT, file), 'utf8')
    t.ok(REAL_TIME.some(([pattern]) => (text.match(within) ?? []).some(region => pattern.test(region))), `${file} still needs its exception (${why})`)
  }
  t.same(realTimeUses('x.ts', [
    'const a = Date.now()', 'const f = options.now ?? Date.now', 'const d = new Date()', 'const e = new Date(clock.now())',
    'const t = setTimeout(fn, 5)', 'clearInterval(timer)', "import { setTimeout } from 'node:timers/promises'", 'this.#clock.schedule(fn, 5)', 'Date.parse(iso)'
  ].join('\n')), ['x.ts:1: Date.now', 'x.ts:2: Date.now', 'x.ts:3: new Date()', 'x.ts:5: a global timer', 'x.ts:6: a global timer', 'x.ts:7: a global timer', 'x.ts:7: node:timers'])
  t.same(realTimeUses('src/oauth/consent-page.ts', '<script>\nsetTimeout(poll, 1000)\n</script>\nsetTimeout(leak, 1)'), ['src/oauth/consent-page.ts:4: a global timer'], 'the exception covers the page\'s script only')
})
