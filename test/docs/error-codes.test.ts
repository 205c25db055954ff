import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { HOME_ASSISTANT_ERROR_CODES, HTTP_REFUSAL_CODES, INTERNAL_ERROR_CODE, INTERNAL_ERROR_MEANING, PANEL_REFUSAL_CODES, USER_ERROR_CODES } from '../../src/errors.ts'
import { OAUTH_ERROR_CODES } from '../../src/oauth/errors.ts'
import { connectClient, startHome, startServer } from '../helper.ts'

const text = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8')
/** Each `## ` section's table rows, as code to meaning; the first table is before any `## `. */
const sections = text.split(/^## /m).map(part => Object.fromEntries([...part.matchAll(/^\| `(\w+)` \| (.+) \|$/gm)].map(m => [m[1], m[2]])))

t.test('docs/errors.md lists exactly the codes of src/errors.ts and src/oauth/errors.ts, each in its table, with their meaning', async t => {
  const tables = sections.filter(rows => Object.keys(rows).length > 0)
  t.same(tables, [
    USER_ERROR_CODES,
    HTTP_REFUSAL_CODES,
    PANEL_REFUSAL_CODES,
    { ...HOME_ASSISTANT_ERROR_CODES, [INTERNAL_ERROR_CODE]: INTERNAL_ERROR_MEANING },
    OAUTH_ERROR_CODES
  ])
})

t.test('no code is in two tables', async t => {
  const all = [...Object.keys(USER_ERROR_CODES), ...Object.keys(HTTP_REFUSAL_CODES), ...Object.keys(PANEL_REFUSAL_CODES), ...Object.keys(HOME_ASSISTANT_ERROR_CODES), INTERNAL_ERROR_CODE]
  t.equal(new Set(all).size, all.length)
})

t.test('every code docs/errors.md lists is raised somewhere in the code (its table entry alone does not count)', async t => {
  const sources = ['src', 'plugins', 'routes', 'tools', 'app'].flatMap(dir => readdirSync(new URL(`../../${dir}/`, import.meta.url), { recursive: true, withFileTypes: true })
    .filter(entry => entry.isFile() && entry.name.endsWith('.ts'))
    .map(entry => readFileSync(join(entry.parentPath, entry.name), 'utf8')))
    .join('\n')
  const documented = sections.flatMap(rows => Object.keys(rows))
  t.ok(documented.length > 50, `read the tables (${documented.length} codes)`)
  // A code is raised where it is written as a string: 'HAMCP_X', "invalid_grant"; the tables write them as keys.
  const unused = documented.filter(code => !new RegExp(`['"\`]${code}['"\`]`).test(sources))
  t.same(unused, [], 'no documented code that nothing raises')
})

t.test('a hidden tool answers what errors.md says: JSON-RPC -32602 with HAMCP_NOT_FOUND', async t => {
  t.match(text, /A tool that is hidden[\s\S]{0,80}`-32602`[\s\S]{0,60}`HAMCP_NOT_FOUND`/, 'errors.md says it')
  const home = await startHome(t)
  const server = await startServer(t, { home })
  const client = await connectClient(t, server)
  const error = await client.callTool({ name: 'ha_call_service', arguments: { domain: 'light', service: 'turn_on' } }).then(() => undefined, (err: unknown) => err as { code?: number, data?: { code?: string } })
  t.match(error, { code: -32602, data: { code: 'HAMCP_NOT_FOUND' } }, 'ha_call_service without allow_write')
  t.equal(home.serviceCalls.length, 0)
})
