import t from 'tap'
import type { JSONRPCMessage } from '@modelcontextprotocol/server'
import { answersBody } from '../../src/mcp/stateless.ts'

t.test('answer bodies, small ones from a shared pool, never overlap and are exactly the JSON', async t => {
  const bodies: Array<{ buffer: Buffer, expected: string }> = []
  // Sizes on both sides of the pool's 4 KB cut, many small ones from the same pool slab.
  for (let i = 0; i < 400; i++) {
    const text = `é${'x'.repeat((i * 997) % 9000)}🔥"\\`
    const answer = { jsonrpc: '2.0', id: i, result: { content: [{ type: 'text', text }] } } as unknown as JSONRPCMessage
    bodies.push({ buffer: answersBody([answer], i % 7 === 0), expected: JSON.stringify(i % 7 === 0 ? [answer] : answer) })
  }
  // Checked only after all were made: a later body written over an earlier one would show here.
  for (const { buffer, expected } of bodies) t.equal(buffer.toString('utf8'), expected)
})
