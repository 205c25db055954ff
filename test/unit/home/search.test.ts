import t from 'tap'
import type { EntityRow } from '../../../src/home/entities.ts'
import { rankMatches, searchScore, SearchIndex } from '../../../src/home/search.ts'
import { fold, tokens as tokensOf } from '../../../src/home/text.ts'

function row (entityId: string, name: string, extra = ''): EntityRow {
  const haystack = fold([entityId, entityId.replace(/[._]/g, ' '), name, extra].join('\n'))
  return { entity_id: entityId, domain: entityId.split('.')[0] as string, name, state: 'on', area_id: null, area: null, floor_id: null, floor: null, labels: [], aliases: [], device_id: null, hidden: false, entity_category: null, haystack, foldedName: fold(name) }
}

const rows = [
  row('light.kitchen', 'Kitchen Light', 'Küche'),
  row('light.kitchen_island', 'Island', 'Küche'),
  row('sensor.kitchen_temperature', 'Kitchen Temperature'),
  row('light.stairs', 'Étage Stairs'),
  row('switch.kit', 'Kit')
]

t.test('the index finds every row containing the word, once each', async t => {
  const index = new SearchIndex(rows)
  t.same(index.candidates('kitchen'), ['light.kitchen', 'light.kitchen_island', 'sensor.kitchen_temperature'])
  t.same(index.candidates('kuche'), ['light.kitchen', 'light.kitchen_island'], 'accent-folded')
  t.same(index.candidates('etage'), ['light.stairs'])
  t.same(index.candidates('nothing'), [])
  t.same(index.candidates('temperature\u0000light'), [], 'never matches across two entities')
  t.equal(index.candidates('kitchen', 2), undefined, 'gives up past the limit')
  t.same(index.match(['light', 'kuche']).rows.map(row => row.entity_id), ['light.kitchen', 'light.kitchen_island'], 'the rarer word picks the candidates')
  t.same(index.match(['zzz', 'kitchen']).rows, [])
})

t.test('ranking: every word must match; exact id first', async t => {
  const ranked = rankMatches('kitchen light', rows)
  t.same(ranked.rows.map(r => r.entity_id), ['light.kitchen', 'light.kitchen_island'])
  t.equal(ranked.total, 2)
  t.equal(rankMatches('switch.kit', rows).rows[0]?.entity_id, 'switch.kit', 'exact id ranks first')
  t.same(rankMatches('kitchen zzz', rows), { rows: [], total: 0 })
})

t.test('top-k keeps exactly what a full sort would, and counts every match', async t => {
  const many = Array.from({ length: 500 }, (_, i) => row(`sensor.s_${String(i).padStart(3, '0')}`, i % 7 === 0 ? 'Kitchen' : `Kitchen sensor ${i}`))
  const full = rankMatches('kitchen', many)
  for (const top of [1, 5, 20, 50]) {
    const partial = rankMatches('kitchen', many, top)
    t.equal(partial.total, full.total, `total counted with top ${top}`)
    t.same(partial.rows.map(r => r.entity_id), full.rows.slice(0, top).map(r => r.entity_id), `top ${top} equals the sorted prefix`)
  }
})

t.test('scales: 10,000 rows searched quickly', async t => {
  const many = Array.from({ length: 10_000 }, (_, i) => row(`sensor.room_${i}_temperature`, `Room ${i} Temperature`, i % 100 === 0 ? 'attic' : ''))
  const index = new SearchIndex(many)
  const started = performance.now()
  let found = 0
  for (let i = 0; i < 100; i++) found = index.match(['room', 'attic']).rows.length
  const perQuery = (performance.now() - started) / 100
  t.equal(found, 100)
  t.comment(`10k-row lookup: ${perQuery.toFixed(3)} ms per query`)
  t.ok(perQuery < 20, 'well under the budget even on a loaded machine')
})

/** Ranking as its definition says it: every row scored, a stable sort by score, the first `top`. */
function reference (query: string, candidates: readonly EntityRow[], top: number): { ids: string[], total: number } {
  const folded = fold(query.trim())
  const scored = candidates.map(row => ({ row, score: searchScore(row, folded, tokensOf(query)) })).filter(s => s.score >= 0)
  scored.sort((a, b) => b.score - a.score)
  return { ids: scored.slice(0, top).map(s => s.row.entity_id), total: scored.length }
}

t.test('the word index ranks exactly what a scan of every row ranks', async t => {
  // Ids, names with dots, underscores, digits, accents and punctuation; queries of whole words, word
  // pieces, pieces spanning a dot or an underscore, ids, numbers, and words that match nothing.
  const names = ['Kitchen Light', 'Küche Decke', 'Étage Stairs', 'v1.2 Firmware', 'my_label lamp', 'Living-room TV', 'Bathroom Fan', 'Roomba', 'Room 12 Temperature', 'Garage Door/Gate']
  const domains = ['light', 'sensor', 'switch', 'binary_sensor', 'media_player']
  const many = Array.from({ length: 600 }, (_, i) => {
    const domain = domains[i % domains.length] as string
    const name = `${names[i % names.length] as string}${i % 3 === 0 ? ` ${i}` : ''}`
    return row(`${domain}.${fold(name).replace(/[^a-z0-9]+/g, '_')}_${i}`, name, i % 11 === 0 ? 'Attic\nÉtage 2' : i % 7 === 0 ? 'fw.x9q_build' : '')
  })
  const index = new SearchIndex(many)
  const queries = ['kitchen', 'kitchen light', 'kuche', 'KÜCHE decke', 'etage', 'room', 'oom', 'room 12', 'bathroom', 'v1', 'v1.2', '1.2', 'my_label', 'label', 'y_l', 'sensor.', 'binary_sensor', 'light.kitchen_light_0', 'media_player.living', '12', '3', 'living-room', 'door/gate', 'gate', 'attic', 'x9q', 'build', 'fw.x9', 'zzz', 'kitchen zzz', 'e', 'a b']
  for (const query of queries) {
    const words = tokensOf(query)
    const { rows: candidates, word } = index.match(words)
    if (word !== undefined) t.ok(candidates.every(row => row.haystack.includes(word)), `"${query}": every candidate contains "${word}"`)
    for (const top of [1, 5, 20, Infinity]) {
      const indexed = rankMatches(query, candidates, top, word)
      const scanned = rankMatches(query, many, top)
      const expected = reference(query, many, top)
      t.same(scanned.rows.map(r => r.entity_id), expected.ids, `"${query}" top ${top}: the scan ranks as a full sort does`)
      t.equal(scanned.total, expected.total, `"${query}" top ${top}: the scan counts every match`)
      t.same(indexed.rows.map(r => r.entity_id), scanned.rows.map(r => r.entity_id), `"${query}" top ${top}: same rows, same order`)
      t.equal(indexed.total, scanned.total, `"${query}" top ${top}: same total`)
    }
  }
})
