// The bundle keeps no names (scripts/build.ts): a class whose name collides with another module's is
// renamed, and esbuild writes it in two forms, `class OAuthError2 …` and `var OAuthError3=class …`.
// An anonymous class expression takes its binding's name, so the second form renames `.name` too, and
// CodedError's `this.name = new.target.name` then says `OAuthError3` in every log line and stack trace.
// The build test only looked for the first form. Here: every class of ours the bundle renames, in
// either form, must set its own name explicitly; and the error classes' names, as built, are their own.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'

const ROOT = join(import.meta.dirname, '..', '..')

t.test('no class of ours is renamed by the bundle, in either of esbuild\'s forms, without naming itself', async t => {
  const out = mkdtempSync(join(tmpdir(), 'hamcp-bundle-names-'))
  t.teardown(() => { rmSync(out, { recursive: true, force: true }) })
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts'], { cwd: ROOT, stdio: 'pipe', env: { ...process.env, BUILD_OUT: out } })
  const sources = new Map<string, string>()
  for (const dir of ['src', 'app', 'plugins', 'routes', 'tools']) {
    for (const file of readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' }).filter(f => f.endsWith('.ts'))) {
      const text = readFileSync(join(ROOT, dir, file), 'utf8')
      for (const match of text.matchAll(/^(?:export )?(?:abstract )?class (\w+)/gm)) sources.set(match[1] as string, text)
    }
  }
  t.ok(sources.has('CodedError') && sources.has('OAuthError') && sources.has('StatelessMux'), `our classes found (${sources.size})`)
  const built = readdirSync(out, { recursive: true, encoding: 'utf8' }).filter(f => f.endsWith('.js')).map(f => readFileSync(join(out, f), 'utf8'))
  const renamed = new Map<string, string>()
  for (const text of built) {
    // `class OAuthError2 extends …` (the SDK's, a named class expression) and `var OAuthError3=class extends …`.
    for (const m of text.matchAll(/\bclass ([A-Za-z_$][\w$]*?)(\d+)\b|\b([A-Za-z_$][\w$]*?)(\d+)=class\b/g)) {
      const base = (m[1] ?? m[3]) as string
      const full = `${base}${(m[2] ?? m[4]) as string}`
      if (sources.has(base) && !sources.has(full)) renamed.set(full, base)
    }
  }
  // The SDK's OAuthError is one renamed (`class OAuthError2`), and it sets its name itself; so must any of ours.
  const unnamed = [...renamed].filter(([, base]) => {
    const source = sources.get(base) as string
    return !new RegExp(`this\\.name = '${base}'|override (?:readonly )?name = '${base}'`).test(source)
  }).map(([full, base]) => `${base} (built as ${full})`)
  t.same(unnamed, [], 'every renamed class of ours names itself')
  // As built: each error class's name, read where a log line reads it (`err.name`, the stack's first word).
  const oauth = built.find(text => /OAuthError\d*=class extends CodedError/.test(text)) as string
  t.ok(oauth, 'our OAuthError is in the bundle')
  const body = /OAuthError\d*=class extends CodedError\{(.*?)\};/s.exec(oauth)?.[1] ?? ''
  t.match(body, /this\.name="OAuthError"/, 'the built OAuthError sets its own name')
})
