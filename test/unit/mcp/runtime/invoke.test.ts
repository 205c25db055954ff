import t from 'tap'
import { jsonResult } from '../../../../src/mcp/runtime/invoke.ts'
import { compactRow } from '../../../../tools/_shared/entities.ts'

// Text that JSON escapes, or that a naive escaper would get wrong.
const AWKWARD = ['plain', 'quote " inside', 'back\\slash', 'new\nline\ttab', 'control \u0001\u001f', 'accent étage', 'emoji 🔥 ok',
  'lone \ud800 high', 'lone \udc00 low', 'separators \u2028\u2029', '', '</script>', '{"json":"inside"}']

const noScrub = { home: { scrub: (text: string) => text } } as unknown as Parameters<typeof jsonResult>[1]

function item (i: number): Record<string, string> {
  const name = AWKWARD[i % AWKWARD.length] as string
  return i % 3 === 0 ? { entity_id: `light.l_${i}`, name, state: 'on' } : { entity_id: `sensor.s_${i}`, name, state: name, area: `Área ${i}` }
}

// A client that reads only the text and one that reads the structured content must read the same answer.
t.test('the text content is the answer\'s JSON, and the structured content the same answer', async t => {
  const items = AWKWARD.map((_, i) => Object.freeze(item(i)))
  const answers: unknown[] = [
    { items, returned: items.length, total: 99, has_more: true, next_offset: 13 },
    { items, note: 'with "quotes" and \\ and é', skipped: undefined, fn: () => 1, nan: Number.NaN, nested: { a: [1, 'x'] } },
    { 'odd "key"': items.slice(0, 2), 2: 'integer-like key first', z: [] },
    { items: [items[0], { entity_id: 'x.y', extra: [1, 2] }, undefined, () => 1, items[1], new Date(0), null, 'text', 5] }
  ]
  for (const value of answers) {
    const result = jsonResult(value, noScrub)
    const text = result.content[0]?.type === 'text' ? result.content[0].text : ''
    t.equal(text, JSON.stringify(value), 'the text content is the answer\'s JSON')
    t.equal(JSON.stringify(result.structuredContent), text, `the structured content says the same: ${text.slice(0, 40)}`)
  }
})

t.test('an answer that is not an object is wrapped in the structured content, as is in the text', async t => {
  for (const value of [[{ a: 'x' }], 'text', null, 5]) {
    const result = jsonResult(value, noScrub)
    t.same(result.structuredContent, { value })
    t.same(result.content, [{ type: 'text', text: JSON.stringify(value) }])
  }
})

t.test('a scrubbed answer is scrubbed in its text and its structured content', async t => {
  const scrubbing = { home: { scrub: (text: string) => text.replaceAll('abc123secret', '[redacted]') } } as unknown as Parameters<typeof jsonResult>[1]
  const result = jsonResult({ items: [{ entity_id: 'camera.door', name: 'token abc123secret' }] }, scrubbing)
  t.notMatch(JSON.stringify(result), /abc123secret/)
  t.same(result.structuredContent, { items: [{ entity_id: 'camera.door', name: 'token [redacted]' }] }, 'the structured content says the same')
})

t.test('an answer over the cap is shaped from the value, the text as it was shaped', async t => {
  const items = Array.from({ length: 400 }, (_, i) => ({ entity_id: `sensor.s_${i}`, name: `Sensor ${i}`, state: '21.5' }))
  const result = jsonResult({ items, returned: 400, total: 400, has_more: false, next_offset: null }, noScrub)
  t.same(result.content, [{ type: 'text', text: JSON.stringify(result.structuredContent) }])
  t.ok(Buffer.byteLength(JSON.stringify(result.structuredContent)) <= 15_000, 'capped')
  t.ok((result.structuredContent as { items: unknown[] }).items.length < 400, 'fewer rows')
})

t.test('a catalogue row lists as its id, name, state and area, the row untouched', async t => {
  const row = { entity_id: 'light.a', domain: 'light', name: 'A "lamp"', state: 'on', area_id: 'k', area: 'Kitchen', floor_id: null, floor: null, labels: [], aliases: [], device_id: null, hidden: false, entity_category: null, haystack: 'light.a', foldedName: 'a "lamp"' }
  const before = JSON.stringify(row)
  t.same(compactRow(row), { entity_id: 'light.a', name: 'A "lamp"', state: 'on', area: 'Kitchen' })
  t.same(compactRow({ ...row, area_id: null, area: null }), { entity_id: 'light.a', name: 'A "lamp"', state: 'on' }, 'no area key without an area')
  t.equal(JSON.stringify(row), before, 'the row is as it was')
})
