import { readFileSync } from 'node:fs'
import t from 'tap'
import { USER_ERROR_CODES } from '../../src/errors.ts'

t.test('docs/errors.md lists exactly the codes of src/errors.ts, with their meaning', async t => {
  const text = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8')
  const documented = Object.fromEntries([...text.matchAll(/^\| `(HAMCP_\w+)` \| (.+) \|$/gm)].map(m => [m[1], m[2]]))
  t.same(documented, USER_ERROR_CODES)
})
