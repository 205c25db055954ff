import t from 'tap'
import { answerJson, fixedJson, runBytes } from '../../src/mcp/fixed-json.ts'
import { jsonResult, toolResultJson } from '../../src/mcp/invoke.ts'
import { compactRow } from '../../tools/_shared/entities.ts'

// Text that JSON escapes, or that a naive escaper would get wrong.
const AWKWARD = ['plain', 'quote " inside', 'back\\slash', 'new\nline\ttab', 'control \u0001\u001f', 'accent étage', 'emoji 🔥 ok',
  'lone \ud800 high', 'lone \udc00 low', 'separators \u2028\u2029', '', '</script>', '{"json":"inside"}']

const noScrub = { home: { scrub: (text: string) => text, cleanPieces: () => true } } as unknown as Parameters<typeof jsonResult>[1]

function row (i: number): Record<string, string> {
  const name = AWKWARD[i % AWKWARD.length] as string
  return i % 3 === 0 ? { entity_id: `light.l_${i}`, name, state: 'on' } : { entity_id: `sensor.s_${i}`, name, state: name, area: `Área ${i}` }
}

t.test('an answer built from fixed items is byte for byte JSON.stringify, text and escaped text', async t => {
  const items = AWKWARD.map((_, i) => fixedJson(row(i)))
  const answers: unknown[] = [
    { items, returned: items.length, total: 99, has_more: true, next_offset: 13 },
    { items, note: 'with "quotes" and \\ and é', skipped: undefined, fn: () => 1, nan: Number.NaN, nested: { a: [1, 'x'] } },
    { 'odd "key"': items.slice(0, 2), 2: 'integer-like key first', z: [] },
    // Fixed and ordinary items side by side, holes JSON writes as null, a Date with toJSON.
    { items: [items[0], { entity_id: 'x.y', extra: [1, 2] }, undefined, () => 1, items[1], new Date(0), null, 'text', 5] },
    { first: [items[2]], second: [items[3], items[4]], tail: 'end' }
  ]
  for (const value of answers) {
    const expected = JSON.stringify(value)
    const serialized = answerJson(value)
    t.equal(serialized.text, expected, `text of ${expected.slice(0, 40)}`)
    t.ok(serialized.escaped, 'the fixed pieces were used')
    t.equal(`"${(serialized.escaped ?? []).join('')}"`, JSON.stringify(expected), 'escaped pieces are the escaped text')
    // answersBody sizes the body from these: a wrong count leaves bytes unwritten or cuts the answer.
    t.equal(runBytes(serialized.pieces ?? []), Buffer.byteLength(expected, 'utf8'), 'the pieces know their UTF-8 size')
    t.equal(runBytes(serialized.escaped ?? []), Buffer.byteLength(JSON.stringify(expected), 'utf8') - 2, 'the escaped pieces know theirs')
    const result = jsonResult(value, noScrub)
    t.equal(result.content[0]?.type === 'text' && result.content[0].text, expected, 'the text content, joined when read')
    t.equal(toolResultJson(result).flat().join(''), JSON.stringify(result), 'the written result is JSON.stringify of the result')
  }
})

t.test('answers without fixed items are serialized by JSON.stringify itself', async t => {
  for (const value of [{ items: [{ a: 1 }] }, [fixedJson({ a: 'x' })], 'text', null, 5, { toJSON: () => 'custom', items: [fixedJson({ b: 'y' })] }]) {
    const serialized = answerJson(value)
    t.equal(serialized.text, JSON.stringify(value))
    t.equal(serialized.escaped, undefined)
  }
})

t.test('a fixed item cannot change under its remembered JSON', async t => {
  const item = fixedJson({ entity_id: 'light.a', state: 'on' })
  t.throws(() => { (item as Record<string, string>).state = 'off' }, TypeError, 'frozen')
  t.equal(answerJson({ items: [item] }).text, '{"items":[{"entity_id":"light.a","state":"on"}]}')
})

t.test('a scrubbed answer is written from its scrubbed text, not from the fixed pieces', async t => {
  const item = fixedJson({ entity_id: 'camera.door', name: 'token abc123secret' })
  const scrubbing = { home: { scrub: (text: string) => text.replaceAll('abc123secret', '[redacted]'), cleanPieces: (pieces: string[]) => pieces.every(piece => !piece.includes('abc123secret')) } } as unknown as Parameters<typeof jsonResult>[1]
  const result = jsonResult({ items: [item] }, scrubbing)
  const written = toolResultJson(result).flat().join('')
  t.notMatch(written, /abc123secret/)
  t.equal(written, JSON.stringify(result))
  const clean = jsonResult({ items: [fixedJson({ entity_id: 'camera.yard', name: 'Yard' })] }, scrubbing)
  t.equal(toolResultJson(clean).flat().join(''), JSON.stringify(clean), 'a clean answer beside it is written from its pieces')
})

t.test('an answer over the cap is shaped from the value, not written from the pieces', async t => {
  const items = Array.from({ length: 400 }, (_, i) => fixedJson({ entity_id: `sensor.s_${i}`, name: `Sensor ${i}`, state: '21.5' }))
  const result = jsonResult({ items, returned: 400, total: 400, has_more: false, next_offset: null }, noScrub)
  const written = toolResultJson(result).flat().join('')
  t.equal(written, JSON.stringify(result))
  t.ok(Buffer.byteLength(JSON.stringify(result.structuredContent)) <= 15_000, 'capped')
  t.ok((result.structuredContent as { items: unknown[] }).items.length < 400, 'fewer rows')
})

t.test('a catalogue row keeps its compact form once, out of its JSON and keys', async t => {
  const row = { entity_id: 'light.a', domain: 'light', name: 'A "lamp"', state: 'on', area_id: 'k', area: 'Kitchen', floor_id: null, floor: null, labels: [], aliases: [], device_id: null, hidden: false, entity_category: null, haystack: 'light.a', foldedName: 'a "lamp"' }
  const before = { json: JSON.stringify(row), keys: Object.keys(row) }
  const compact = compactRow(row)
  t.same(compact, { entity_id: 'light.a', name: 'A "lamp"', state: 'on', area: 'Kitchen' })
  t.equal(compactRow(row), compact, 'made once')
  t.equal(JSON.stringify(row), before.json, 'the row serializes as before')
  t.same(Object.keys(row), before.keys)
  t.same(Object.keys(compact), ['entity_id', 'name', 'state', 'area'], 'its remembered JSON is no key of its own')
  t.ok(Object.isFrozen(compact))
})
