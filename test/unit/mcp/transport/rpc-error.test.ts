// The codes given to JSON-RPC errors the SDK answers by itself (src/mcp/transport/rpc-error.ts withRefusalCode):
// the e2e walk (test/e2e/protocol-errors.test.ts) reaches most of them; these are the ones a test
// cannot reach cheaply (64 listen streams, a transport's 403 or 415), read from the SDK's own texts.
import t from 'tap'
import { withRefusalCode } from '../../../../src/mcp/transport/rpc-error.ts'

const answer = (code: number, message: string, data?: unknown): object => ({ jsonrpc: '2.0', id: 1, error: { code, message, ...(data !== undefined ? { data } : {}) } })
const codeOf = (message: object, status?: number): unknown => (withRefusalCode(message, status) as { error: { data: { code: string } } }).error.data.code

t.test('SDK answers without a code get ours', async t => {
  t.equal(codeOf(answer(-32603, 'Subscription limit reached')), 'HAMCP_LIMIT_REACHED', 'the listen router\'s stream cap')
  t.equal(codeOf(answer(-32603, 'Internal error')), 'HAMCP_INTERNAL')
  t.equal(codeOf(answer(-32000, 'Forbidden: Invalid Origin header'), 403), 'HAMCP_ORIGIN_NOT_ALLOWED')
  t.equal(codeOf(answer(-32000, 'Unsupported Media Type: Content-Type must be application/json'), 415), 'HAMCP_UNSUPPORTED_MEDIA_TYPE')
  t.equal(codeOf(answer(-32000, 'Bad Request: Unsupported protocol version: 1999-01-01'), 400), 'HAMCP_UNSUPPORTED_PROTOCOL_VERSION')
  t.equal(codeOf(answer(-32001, 'Session not found'), 404), 'HAMCP_SESSION_NOT_FOUND')
  t.equal(codeOf(answer(-32700, 'Parse error', 'SyntaxError: x'), 400), 'HAMCP_PARSE_ERROR')
  t.equal(codeOf(answer(-32021, 'Missing required client capability', { requiredCapabilities: {} })), 'HAMCP_INVALID_REQUEST')
})

t.test('what a code is added to is kept', async t => {
  t.same(withRefusalCode(answer(-32700, 'Parse error', 'SyntaxError: x')), answer(-32700, 'Parse error', { detail: 'SyntaxError: x', code: 'HAMCP_PARSE_ERROR' }), 'data that is not an object moves to data.detail')
  t.same(withRefusalCode(answer(-32602, 'Resource not found: ha://x', { uri: 'ha://x', code: 'HAMCP_NOT_FOUND' })), answer(-32602, 'Resource not found: ha://x', { uri: 'ha://x', code: 'HAMCP_NOT_FOUND' }), 'a code already there stays')
  const result = { jsonrpc: '2.0', id: 1, result: {} }
  t.equal(withRefusalCode(result), result, 'an answer that is not an error is returned as is')
})

t.test('the SDK\'s schema failures, answered -32603 with zod\'s issue list, become -32602 in words', async t => {
  const issues = JSON.stringify([{ expected: 'string', code: 'invalid_type', path: ['params', 'uri'], message: 'Invalid input: expected string, received undefined' }], null, 2)
  t.same(withRefusalCode(answer(-32603, issues)), answer(-32602, 'Invalid params: params.uri: Invalid input: expected string, received undefined', { code: 'HAMCP_INVALID_ARGUMENT' }))
  t.equal(codeOf(answer(-32603, '[not json')), 'HAMCP_INTERNAL', 'a text that only starts like a list is a bug\'s')
})
