// DNS rebinding: a web page the developer visits rebinds its own name to 127.0.0.1 and calls the status
// page from the browser. The peer is loopback, so only the Host and Origin headers tell it apart.
import { hostname } from 'node:os'
import t from 'tap'
import { INGRESS_PROXY_ADDRESS } from '../../src/hosts.ts'
import { startHome, startServer } from '../helper.ts'
import { startIngress, testCatalog } from './_ingress.ts'

const UI = { 'x-ha-mcp-ui': '1' }

t.test('outside the add-on: only loopback or own-name Hosts, and no foreign Origin', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { app: { catalog: await testCatalog() }, home })
  const logs: string[] = []
  const ingress = await startIngress(t, server, logs)

  const stolen = await ingress.inject({ url: '/api/connect?reveal=1', headers: { host: 'evil.example:9584' } })
  t.equal(stolen.statusCode, 403, 'a foreign Host is refused')
  t.notOk(stolen.body.includes(server.token), 'and the token is not in the answer')
  t.ok(logs.some(line => line.includes('evil.example')), 'the refused Host is logged')

  const created = await ingress.inject({ method: 'POST', url: '/api/tokens', headers: { ...UI, host: 'evil.example:9584', origin: 'http://evil.example:9584' }, payload: { name: 'attacker', scopes: ['read'] } })
  t.equal(created.statusCode, 403, 'a token-creating POST from a rebound name is refused')
  const foreignOrigin = await ingress.inject({ method: 'POST', url: '/api/tokens', headers: { ...UI, host: '127.0.0.1:9584', origin: 'http://evil.example' }, payload: { name: 'attacker', scopes: ['read'] } })
  t.equal(foreignOrigin.statusCode, 403, 'a foreign Origin is refused even with a loopback Host')
  const nullOrigin = await ingress.inject({ method: 'POST', url: '/api/tokens', headers: { ...UI, host: '127.0.0.1:9584', origin: 'null' }, payload: { name: 'attacker', scopes: ['read'] } })
  t.equal(nullOrigin.statusCode, 403, 'an opaque (sandboxed) Origin is refused')
  t.same((await ingress.inject({ url: '/api/tokens' })).json().tokens, [], 'no token was created')

  for (const host of ['127.0.0.1:9584', 'localhost:9584', '[::1]:9584', 'app.localhost', `${hostname()}:9584`, 'LOCALHOST']) {
    const answer = await ingress.inject({ url: '/api/connect?reveal=1', headers: { host } })
    t.equal(answer.statusCode, 200, `Host ${host} is accepted`)
  }
  const local = await ingress.inject({ method: 'POST', url: '/api/tokens', headers: { ...UI, host: 'localhost:9584', origin: 'http://localhost:9584' }, payload: { name: 'mine', scopes: ['read'] } })
  t.equal(local.statusCode, 201, 'the page itself can still create tokens')
})

t.test('in the add-on: the ingress proxy is trusted whatever Host it forwards', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { app: { catalog: await testCatalog() }, home, env: { SUPERVISOR_TOKEN: 'supervisor-token-for-tests', SUPERVISOR_URL: home.supervisorUrl } })
  const ingress = await startIngress(t, server)
  const proxied = await ingress.inject({ url: '/api/overview', remoteAddress: INGRESS_PROXY_ADDRESS, headers: { host: 'homeassistant.local:8123' } })
  t.equal(proxied.statusCode, 200)
  const foreign = await ingress.inject({ url: '/api/overview', remoteAddress: '192.168.1.50', headers: { host: 'localhost' } })
  t.equal(foreign.statusCode, 403, 'a loopback Host from another address changes nothing')
})
