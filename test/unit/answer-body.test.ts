import t from 'tap'
import type { JSONRPCMessage } from '@modelcontextprotocol/server'
import { answersBody, bodyBuffer } from '../../src/mcp/stateless.ts'

t.test('answer bodies cut from a shared slab never overlap and are exactly the JSON', async t => {
  const bodies: Array<{ buffer: Buffer, expected: string }> = []
  // Enough answers to fill several slabs, of sizes around and across the slab's cut.
  for (let i = 0; i < 400; i++) {
    const text = `é${'x'.repeat((i * 997) % 9000)}🔥"\\`
    const answer = { jsonrpc: '2.0', id: i, result: { content: [{ type: 'text', text }] } } as unknown as JSONRPCMessage
    bodies.push({ buffer: answersBody([answer], i % 7 === 0), expected: JSON.stringify(i % 7 === 0 ? [answer] : answer) })
  }
  // Checked only after all were made: a later body written over an earlier one would show here.
  for (const { buffer, expected } of bodies) t.equal(buffer.toString('utf8'), expected)
  t.ok(bodies.every(({ buffer }) => buffer.byteOffset % 8 === 0), 'aligned')
  const shared = new Set(bodies.map(({ buffer }) => buffer.buffer))
  t.ok(shared.size < bodies.length / 10, `a few slabs for ${bodies.length} bodies (${shared.size})`)
})

t.test('a body larger than the slab cut gets a buffer of its own', async t => {
  const big = bodyBuffer(200_000)
  const small = bodyBuffer(100)
  t.equal(big.length, 200_000)
  t.not(big.buffer, small.buffer)
})
