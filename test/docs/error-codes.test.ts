import { readFileSync } from 'node:fs'
import t from 'tap'
import { HOME_ASSISTANT_ERROR_CODES, HTTP_REFUSAL_CODES, INTERNAL_ERROR_CODE, INTERNAL_ERROR_MEANING, PANEL_REFUSAL_CODES, USER_ERROR_CODES } from '../../src/errors.ts'
import { OAUTH_ERROR_CODES } from '../../src/oauth/errors.ts'

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
