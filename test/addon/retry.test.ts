// Supervisor retries decide on the status the Supervisor answered, a field of the error, never on
// the error's text (which carries the Supervisor's own message).
import { createServer, type Server } from 'node:http'
import t, { type Test } from 'tap'
import { isTransientSupervisorError, withSupervisorRetry } from '../../src/addon/retry.ts'
import { HaHttpFailedError, HomeAssistantError } from '../../src/errors.ts'
import { HttpClient, SupervisorClient } from '../../src/ha/http.ts'
import { createLogger, SecretScrubber } from '../../src/logger.ts'

const log = createLogger({ level: 'error', scrubber: new SecretScrubber(), write: () => {} })

/** A Supervisor stand-in on 127.0.0.1 that answers each request with the next status and message. */
async function supervisorAnswering (t: Test, answers: Array<{ status: number, message: string }>): Promise<{ client: SupervisorClient, calls: () => number }> {
  let calls = 0
  const server: Server = createServer((_req, res) => {
    const answer = answers[Math.min(calls, answers.length - 1)] as { status: number, message: string }
    calls++
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify({ result: answer.status < 300 ? 'ok' : 'error', message: answer.message, data: {} }))
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>(resolve => server.close(() => resolve())))
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return { client: new SupervisorClient(new HttpClient({ baseUrl: `http://127.0.0.1:${port}`, token: 'supervisor-token', log })), calls: () => calls }
}

const FAST = { baseMs: 1, maxMs: 2, attempts: 5 }

t.test('HAMCP_HA_HTTP_FAILED keeps the status the Supervisor answered as a field', async t => {
  const { client } = await supervisorAnswering(t, [{ status: 503, message: 'warming up' }])
  const err = await client.call('GET', '/addons/self/info').catch((e: unknown) => e)
  t.ok(err instanceof HomeAssistantError)
  t.match(err, { code: 'HAMCP_HA_HTTP_FAILED', upstreamStatus: 503, status: 502 })
  t.equal(isTransientSupervisorError(err), true)
})

t.test('a 4xx whose message mentions a 503 is not retried: the field decides, not the text', async t => {
  const { client, calls } = await supervisorAnswering(t, [{ status: 400, message: 'the proxy answered HTTP 503 earlier' }])
  await t.rejects(withSupervisorRetry(async () => await client.call('POST', '/addons/self/options', {}), FAST), { code: 'HAMCP_HA_HTTP_FAILED', upstreamStatus: 400 })
  t.equal(calls(), 1, 'one attempt only')
})

t.test('502, 503 and 504 are retried until the Supervisor answers', async t => {
  const { client, calls } = await supervisorAnswering(t, [{ status: 502, message: 'a' }, { status: 503, message: 'b' }, { status: 504, message: 'c' }, { status: 200, message: '' }])
  t.same(await withSupervisorRetry(async () => await client.call('GET', '/addons/self/info'), FAST), {})
  t.equal(calls(), 4)
})

t.test('the status field alone decides', async t => {
  t.equal(isTransientSupervisorError(new HaHttpFailedError('GET /x', 504, 'gateway')), true)
  t.equal(isTransientSupervisorError(new HaHttpFailedError('GET /x', 404, 'answered HTTP 503')), false)
  t.equal(isTransientSupervisorError(Object.assign(new Error('GET /x answered HTTP 503: busy'), { code: 'HAMCP_HA_HTTP_FAILED' })), false, 'a look-alike without the field is not ours')
})

t.test('a refused connection is HAMCP_HA_NOT_CONNECTED with the network error as its cause', async t => {
  const server = createServer()
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  await new Promise<void>(resolve => server.close(() => resolve()))
  const http = new HttpClient({ baseUrl: `http://127.0.0.1:${port}`, token: 'x', log })
  const err = await http.json('GET', '/api/').catch((e: unknown) => e) as HomeAssistantError
  t.match(err, { code: 'HAMCP_HA_NOT_CONNECTED', status: 503 })
  t.ok(err.cause instanceof Error, 'the cause is kept')
  t.equal(isTransientSupervisorError(err), true)
})
