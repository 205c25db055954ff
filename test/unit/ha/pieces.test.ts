import t from 'tap'
import { walkPieces } from '../../../src/ha/pieces.ts'

const HOUR = 3_600_000
const start = Date.UTC(2026, 10, 1)
const end = start + 168 * HOUR

/** One row a minute over a week, plus rows on round hours, where piece edges are likely to fall. */
const rows = Array.from({ length: 168 * 60 }, (_v, i) => start + 30_000 + i * 60_000)
  .concat(Array.from({ length: 168 }, (_v, h) => start + h * HOUR))
  .sort((a, b) => a - b)

/** What Home Assistant answers for [from, to]: its bounds inclusive or exclusive, the walk must not care. */
function source (inclusive: boolean): { fetch: (from: number, to: number) => Promise<number[]>, sizes: number[] } {
  const sizes: number[] = []
  return {
    sizes,
    fetch: async (from, to) => {
      const piece = rows.filter(at => inclusive ? at >= from && at <= to : at > from && at < to)
      sizes.push(piece.length)
      return piece
    }
  }
}

for (const inclusive of [true, false]) {
  t.test(`every row once, in pieces near the target (${inclusive ? 'inclusive' : 'exclusive'} bounds)`, async t => {
    for (const direction of ['backward', 'forward'] as const) {
      const seen: number[] = []
      const { fetch, sizes } = source(inclusive)
      const walk = await walkPieces(direction, start, end, at => at, fetch, piece => { seen.push(...piece); return false }, { targetRows: 500, firstMs: HOUR, deadline: Number.POSITIVE_INFINITY })
      t.ok(walk.complete, `${direction}: the whole window was read`)
      const expected = rows.filter(at => inclusive ? at <= end : at > start && at < end)
      t.same([...seen].sort((a, b) => a - b), expected, `${direction}: each row exactly once, edges included`)
      t.ok(Math.max(...sizes) <= 2 * 500, `${direction}: no piece far over the target (${Math.max(...sizes)} rows at most)`)
    }
  })
}

t.test('backward: stops as soon as the consumer has enough, and says how far it read', async t => {
  const { fetch, sizes } = source(true)
  let got = 0
  const walk = await walkPieces('backward', start, end, at => at, fetch, piece => { got += piece.length; return got >= 100 }, { targetRows: 500, firstMs: HOUR / 4, deadline: Number.POSITIVE_INFINITY })
  t.notOk(walk.complete)
  t.equal(walk.stoppedBy, 'enough')
  t.ok(sizes.reduce((a, b) => a + b, 0) < 1000, 'a week is not read for the last hundred rows')
  t.ok(walk.reached > end - 24 * HOUR, 'it read back only a few hours')
})

t.test('the deadline ends the walk after the piece in flight, never before the first', async t => {
  let clock = 0
  const { fetch } = source(true)
  const slow = async (from: number, to: number): Promise<number[]> => { clock += 1000; return await fetch(from, to) }
  const walk = await walkPieces('forward', start, end, at => at, slow, () => false, { targetRows: 500, firstMs: HOUR, deadline: 2500, now: () => clock })
  t.equal(walk.stoppedBy, 'deadline')
  t.equal(walk.pieces, 3, 'pieces are asked for until the deadline passes')
  t.ok(walk.reached > start && walk.reached < end)
})

t.test('an empty window stretch widens the next piece', async t => {
  const sizes: Array<[number, number]> = []
  const walk = await walkPieces<number>('backward', start, end, at => at, async (from, to) => { sizes.push([from, to]); return [] }, () => false, { targetRows: 500, firstMs: HOUR, deadline: Number.POSITIVE_INFINITY })
  t.ok(walk.complete)
  t.ok(walk.pieces <= 4, `${walk.pieces} pieces for an empty week`)
})

t.test('past the deadline while the consumer has nothing worth answering yet', async t => {
  let clock = 0
  const empty = async (): Promise<number[]> => { clock += 1000; return [] }
  let found = 0
  const walk = await walkPieces<number>('backward', start, end, at => at, async (from, to) => { const rows = await empty(); return clock >= 3000 ? [to - 1] : rows }, piece => { found += piece.length; return false }, { targetRows: 500, firstMs: HOUR, deadline: 500, now: () => clock, pastDeadline: () => found === 0 })
  t.equal(walk.stoppedBy, 'deadline')
  t.equal(found, 1, 'it went on until something was found, then stopped')
})
