// What /mcp admits, read without Fastify (src/mcp/transport/admission.ts): a POST's refusals in the
// order the route applies them, the framework's own refusals in JSON-RPC form, and the listen
// streams' caps and their end with the credential that opened them. The e2e files
// (test/e2e/protocol-2026.test.ts, the listen-stream red team in test/sessions/subscriptions.test.ts) walk the same rules over HTTP.
import { EventEmitter } from 'node:events'
import t from 'tap'
import type { Identity } from '../../../../src/auth/identity.ts'
import { Revocations } from '../../../../src/auth/revocations.ts'
import { admitPost, BODY_LIMIT, LISTEN_BODY_LIMIT, ListenAdmission, MAX_LISTENS_PER_TOKEN, parseBody, requestRefusal } from '../../../../src/mcp/transport/admission.ts'
import { MODERN_PROTOCOL_VERSION } from '../../../../src/mcp/transport/era.ts'
import { RpcRefusal } from '../../../../src/mcp/transport/rpc-error.ts'
import { fakeClock } from '../../../helper.ts'
import { metaFor } from '../../../modern.ts'

const call = { jsonrpc: '2.0', id: 7, method: 'tools/list', params: {} }
const modern = (method: string, params: Record<string, unknown> = {}): Record<string, unknown> =>
  ({ jsonrpc: '2.0', id: 9, method, params: { ...params, _meta: metaFor() } })
const refusedCode = (admission: ReturnType<typeof admitPost>): unknown => 'refused' in admission ? admission.refused.code : admission.era

t.test('a POST is refused for the first rule it breaks, in the route\'s order', async t => {
  t.equal(refusedCode(admitPost('not a message', { accept: 'text/html' })), 'HAMCP_NOT_ACCEPTABLE', 'what it accepts first, before its body')
  t.equal(refusedCode(admitPost([], {})), 'HAMCP_INVALID_REQUEST', 'an empty batch')
  t.equal(refusedCode(admitPost({ ...call, id: 'x'.repeat(257) }, {})), 'HAMCP_INVALID_REQUEST', 'an id over the cap')
  t.equal(refusedCode(admitPost(call, { protocolVersion: '1999-01-01' })), 'HAMCP_UNSUPPORTED_PROTOCOL_VERSION', 'a 2025-era version the server does not speak')
  const mismatch = admitPost(modern('tools/list'), { protocolVersion: MODERN_PROTOCOL_VERSION })
  t.equal(refusedCode(mismatch), 'HAMCP_HEADER_MISMATCH', 'a modern request without Mcp-Method')
  t.equal('refused' in mismatch && mismatch.id, 9, 'the era rules\' refusal echoes the request id')
  t.equal('refused' in mismatch && mismatch.refused.status, 400)
})

t.test('an admitted POST says its era, its messages and whether it was a batch', async t => {
  t.same(admitPost(call, { accept: 'application/json, text/event-stream' }), { era: 'legacy', messages: [call], batch: false })
  t.same(admitPost([call, call], {}), { era: 'legacy', messages: [call, call], batch: true })
  const body = modern('tools/call', { name: 'ha_get_entity', arguments: {} })
  const admitted = admitPost(body, { protocolVersion: MODERN_PROTOCOL_VERSION, method: 'tools/call', name: 'ha_get_entity' })
  t.same(admitted, { era: 'modern', method: 'tools/call', messages: [body], batch: false })
})

t.test('the framework\'s refusals and bad JSON answer in JSON-RPC form with our codes', async t => {
  t.throws(() => parseBody('{'), { code: 'HAMCP_PARSE_ERROR', status: 400, rpcCode: -32700 })
  t.same(parseBody('{"a":1}'), { a: 1 })
  t.match(requestRefusal(Object.assign(new Error('too large'), { code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 })), { status: 413, code: 'HAMCP_TOO_LARGE', message: `Request body larger than ${BODY_LIMIT / 1024 / 1024} MB.` })
  t.match(requestRefusal(Object.assign(new Error('media'), { code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', statusCode: 415 })), { status: 415, code: 'HAMCP_UNSUPPORTED_MEDIA_TYPE' })
  t.match(requestRefusal(Object.assign(new Error('bad'), { statusCode: 400 })), { status: 400, code: 'HAMCP_INVALID_REQUEST', rpcCode: -32600 })
  const ours = new RpcRefusal(429, -32000, 'HAMCP_RATE_LIMITED', 'slow down')
  t.equal(requestRefusal(ours), ours, 'ours passes as raised')
  t.equal(requestRefusal(new Error('a bug')), undefined, 'a bug is not a refusal: the route logs it and answers internal error')
})

class Stream extends EventEmitter {
  ended = false
  end (): void {
    this.ended = true
    this.emit('close')
  }
}

t.test('listen streams: the caps, then each stream counts until it closes and ends with its credential', async t => {
  const revocations = new Revocations({ clock: fakeClock() })
  const listens = new ListenAdmission({ mayRead: uri => uri !== 'ha://entity/lock.front_door', maxSubscriptions: 3, revocations })
  const alice: Identity = { id: 'token:alice', name: 'alice', levels: { '*': 'read' } }
  const bob: Identity = { id: 'token:bob', name: 'bob', levels: { '*': 'read' } }
  const listen = (uris: string[]): Record<string, unknown> => modern('subscriptions/listen', { notifications: { resourceSubscriptions: uris } })

  t.match(listens.admit(listen(['x'.repeat(LISTEN_BODY_LIMIT)]), alice, new Stream()), { status: 413, code: 'HAMCP_TOO_LARGE' })
  t.match(listens.admit(listen(['a', 'b', 'c', 'd']), alice, new Stream()), { status: 200, rpcCode: -32602, code: 'HAMCP_LIMIT_REACHED' })
  t.match(listens.admit(listen(['ha://entity/lock.front_door']), alice, new Stream()), { rpcCode: -32602, code: 'HAMCP_DENIED_LEVEL' })
  t.equal(listens.heldBy(alice), 0, 'a refused stream is not counted')

  const streams = Array.from({ length: MAX_LISTENS_PER_TOKEN }, () => new Stream())
  for (const stream of streams) t.equal(listens.admit(listen(['ha://entity/light.kitchen']), alice, stream), undefined)
  t.match(listens.admit(listen([]), alice, new Stream()), { rpcCode: -32603, code: 'HAMCP_LIMIT_REACHED' }, `at most ${MAX_LISTENS_PER_TOKEN} per token`)
  t.equal(listens.admit(listen([]), bob, new Stream()), undefined, 'another token has its own count')

  streams[0]?.emit('close')
  t.equal(listens.heldBy(alice), MAX_LISTENS_PER_TOKEN - 1, 'a closed stream frees its place')
  t.equal(listens.admit(listen([]), alice, new Stream()), undefined)

  const reasons: string[] = []
  const bobs = new Stream()
  listens.admit(listen([]), bob, bobs, reason => { reasons.push(reason) })
  revocations.announce({ identity: 'token:bob', reason: 'revoked on the ingress page' })
  t.ok(bobs.ended, 'the stream ends when its credential dies')
  t.same(reasons, ['revoked on the ingress page'])
  t.equal(listens.heldBy(bob), 0, 'and no longer counts')
  t.notOk(streams[1]?.ended, 'another token\'s streams stay open')
})
