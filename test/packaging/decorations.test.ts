// Plugins get services one way: in their registration options, from the composition root
// (src/compose.ts, wired in app/app.ts). A decoration is kept only for what another plugin's route
// or hook reads at request time and cannot be handed over in options, plus `app.services` itself,
// which app/start.ts and the tests read. This test fails when a decoration is added or dropped, so
// that the list below (and docs/architecture.md) is updated with the reader that justifies it.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'

const ROOT = join(import.meta.dirname, '../..')

/** Each decoration and who reads it. */
const READ_BY: Record<string, string> = {
  'decorate services': 'app/start.ts (the ingress app and the add-on tasks) and tests',
  'decorate authenticate': 'the onRequest hooks of routes/mcp.ts',
  'decorate reauthenticate': 'the preHandler hooks of routes/mcp.ts',
  'decorateRequest revocationsSeen': 'plugins/auth.ts reauthenticate (set by authenticate)',
  'decorate requestLimit': 'routes/mcp.ts, routes/oauth.ts, routes/ingress.ts',
  'decorateRequest identity': 'routes/mcp.ts and the request-limit key (per token)'
}

t.test('plugins/, routes/ and app/ decorate only what something reads', async t => {
  const found: string[] = []
  for (const dir of ['plugins', 'routes', 'app']) {
    for (const file of readdirSync(join(ROOT, dir)).filter(f => f.endsWith('.ts'))) {
      const text = readFileSync(join(ROOT, dir, file), 'utf8')
      for (const m of text.matchAll(/\.(decorate(?:Request|Reply)?)\(\s*'(\w+)'/g)) found.push(`${m[1]} ${m[2]}`)
    }
  }
  t.same(found.sort(), Object.keys(READ_BY).sort())
})
