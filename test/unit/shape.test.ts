import t from 'tap'
import { truncateAttributes } from '../../src/home/attributes.ts'
import { byteLength, fitToCap, page, RESPONSE_CAP_BYTES } from '../../src/shape.ts'
import { fold, tokens } from '../../src/home/text.ts'

t.test('list envelope', async t => {
  const all = Array.from({ length: 10 }, (_, i) => i)
  t.same(page(all, 0, 3), { items: [0, 1, 2], returned: 3, total: 10, has_more: true, next_offset: 3 })
  t.same(page(all, 9, 3), { items: [9], returned: 1, total: 10, has_more: false, next_offset: null })
  t.same(page(all, 20, 3).items, [], 'offset past the end is an empty page')
  const shaped = (n: number): string => `#${n}`
  t.same(page(all, 8, 3, undefined, shaped), { items: ['#8', '#9'], returned: 2, total: 10, has_more: false, next_offset: null }, 'shaped rows: only the page, cut at the end')
  t.same(page(all, 20, 3, undefined, shaped).items, [], 'shaped, past the end: an empty page')
})

t.test('every answer fits the cap, and says how to refine', async t => {
  const rows = Array.from({ length: 2000 }, (_, i) => ({ entity_id: `sensor.s_${i}`, name: `Sensor number ${i}`, state: '21.5' }))
  const fitted = fitToCap(page(rows, 0, 2000)) as { items: unknown[], has_more: boolean, next_offset: number, note: string }
  t.ok(byteLength(fitted) <= RESPONSE_CAP_BYTES, `fits (${byteLength(fitted)} bytes)`)
  t.ok(fitted.items.length > 50, 'keeps as many rows as fit')
  t.equal(fitted.has_more, true)
  t.equal(fitted.next_offset, fitted.items.length, 'next page starts after the last kept row')
  t.match(fitted.note, /offset|filter/)

  const blob = fitToCap({ text: 'x'.repeat(100_000), nested: { list: Array.from({ length: 5000 }, (_, i) => i) } })
  t.ok(byteLength(blob) <= RESPONSE_CAP_BYTES, 'non-list answers are shortened too')
  t.match(JSON.stringify(blob), /capped/)

  const small = { a: 1 }
  t.equal(fitToCap(small), small, 'small answers untouched')
})

t.test('attribute truncation at 500 characters', async t => {
  const { attributes, truncated } = truncateAttributes({ short: 'ok', long: 'y'.repeat(600), list: Array.from({ length: 300 }, (_, i) => i) })
  t.equal(attributes.short, 'ok')
  t.match(attributes.long, /truncated, 600 chars/)
  t.same(truncated.sort(), ['list', 'long'])
})

t.test('search text folds case and accents, keeps any script', async t => {
  t.equal(fold('Étage Küche'), 'etage kuche')
  t.same(tokens('  Salle   à manger '), ['salle', 'a', 'manger'])
  t.equal(fold('和室 🎮'), '和室 🎮')
})

t.test('attributes shown as they are, in their order, whichever of them is truncated', async t => {
  const long = 'z'.repeat(600)
  const plain = { a: 1, b: 'two', c: [3] }
  t.same(JSON.stringify(truncateAttributes(plain).attributes), JSON.stringify(plain), 'nothing to truncate: the same JSON')
  const { attributes, truncated } = truncateAttributes({ first: 1, second: long, third: 'x' })
  t.same(Object.keys(attributes), ['first', 'second', 'third'], 'keys before and after the truncated one kept, in order')
  t.match(attributes, { first: 1, second: /truncated, 600 chars/, third: 'x' })
  t.same(truncated, ['second'])
  const camera = truncateAttributes({ access_token: 'secret', entity_picture: '/api/camera_proxy/camera.x?token=secret', friendly_name: 'X' }).attributes
  t.notMatch(JSON.stringify(camera), /secret/, 'camera credentials never shown')
})
