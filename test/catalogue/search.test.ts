import t from 'tap'
import { TOOLS_DIR } from '../../app/tools-dir.ts'
import { loadToolCatalog } from '../../src/mcp/runtime/registry.ts'
import { fold, similarity, words } from '../../src/mcp/runtime/tool-search.ts'
import { searchHitRate } from '../../bench/catalog-sizes.ts'
import { REQUESTS } from './requests.ts'

t.test('words are folded: case, accents, umlauts and ß do not matter', async t => {
  t.equal(fold('Mises à JOUR'), 'mises a jour')
  t.equal(fold('Gerät neu starten, Straße'), 'gerat neu starten, strasse')
  t.same(words('Wie warm ist es im Schlafzimmer?'), ['wie', 'warm', 'schlafzimmer'], 'stop words go, what says which tool stays')
  t.same(words('ha_get_entity'), ['get', 'entity'], 'a tool name is its words')
})

t.test('a word matches by stem, prefix, compound and typo, never by chance', async t => {
  t.equal(similarity('lights', 'light'), 0.9, 'plural')
  t.ok(similarity('automat', 'automation') > 0, 'prefix')
  t.ok(similarity('einkaufsliste', 'liste') > 0, 'a compound holds the word')
  t.ok(similarity('notifcation', 'notification') > 0, 'a letter left out')
  t.ok(similarity('temprature', 'temperature') > 0, 'two typos in a long word')
  t.equal(similarity('lamp', 'lump'), 0, 'short words must match exactly')
  t.equal(similarity('calendar', 'camera'), 0, 'different words')
})

t.test(`ha_search_tools puts the expected tool in its first three for at least 95% of ${REQUESTS.length} owner requests in five languages`, async t => {
  const catalog = await loadToolCatalog(TOOLS_DIR)
  t.ok(REQUESTS.length >= 150, 'at least 150 requests')
  for (const [request, tool] of REQUESTS) t.ok(catalog.byName.has(tool), `${JSON.stringify(request)} expects an existing tool (${tool})`)
  const rate = searchHitRate(catalog, REQUESTS)
  const percent = 100 * rate.hits / rate.total
  t.comment(`top-3 hit rate: ${percent.toFixed(1)}% (${rate.hits}/${rate.total})`)
  for (const miss of rate.misses) t.comment(`miss: ${JSON.stringify(miss.request)} expected ${miss.expected}, found ${miss.found.join(', ') || 'nothing'}`)
  t.ok(percent >= 95, `hit rate ${percent.toFixed(1)}% >= 95%`)
})
