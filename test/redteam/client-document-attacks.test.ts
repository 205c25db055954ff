// Client ID metadata documents (src/oauth/client-documents.ts, routes/oauth.ts) beside
// test/oauth/client-documents*.test.ts: what a stranger on the internet can do to other people's
// sign-ins through the owner's reverse proxy, and what the consent page shows as the app's identity.
import t from 'tap'
import { clientDocumentHost } from '../../src/oauth/client-documents.ts'
import { startHome, startServer } from '../helper.ts'
import { documentNetwork, startDocumentServer } from '../oauth/_document-server.ts'

t.test('the consent page names a document client by its host in punycode: a look-alike name cannot pass for another', async t => {
  t.equal(clientDocumentHost('https://аpple.com/client.json'), 'xn--pple-43d.com', 'a Cyrillic а is shown as punycode')
  t.equal(clientDocumentHost('https://claude.ai.evil.example/client.json'), 'claude.ai.evil.example', 'the whole host, not a prefix')
  t.equal(clientDocumentHost('https://CLAUDE.AI:443/oauth/client.json'), 'claude.ai', 'case and the default port normalised')
})

t.test('behind the owner\'s reverse proxy, a stranger spends the document fetch budget of every sign-in', async t => {
  const documents = await startDocumentServer(t)
  // The stranger's documents live on their own site (its certificate does not matter: a fetch counts).
  const network = documentNetwork(documents, { 'junk.test': ['127.0.0.1'] })
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { public_url: 'https://ha.example.org' }, app: { oauth: { clientDocuments: { resolve: network.resolve, addressAllowed: network.addressAllowed, ca: network.ca } } } })
  const app = documents.url('/real-app.json')
  documents.json('/real-app.json', { client_id: app, client_name: 'Real App', redirect_uris: ['https://app.example/callback'], token_endpoint_auth_method: 'none' })
  const authorize = async (clientId: string): Promise<{ status: number, text: string }> => {
    const url = `${server.url}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: 'https://app.example/callback', code_challenge: 'x'.repeat(43), code_challenge_method: 'S256' }).toString()}`
    const res = await fetch(url, { redirect: 'manual' })
    return { status: res.status, text: await res.text() }
  }
  // Every request arrives from the proxy's address, as it does behind any reverse proxy or tunnel.
  const junk = (i: number): string => documents.url(`/junk-${i}.json`).replace('client.test', 'junk.test')
  for (let i = 0; i < 10; i++) await authorize(junk(i))
  const real = await authorize(app)
  // Finding of the red-team pass: the budget was per address only, so the junk refused the real app.
  t.notMatch(real.text, /too many client metadata documents/, 'a stranger\'s junk does not refuse another app')
  t.equal(real.status, 200, 'the real app\'s consent page is served')
  const more = await authorize(junk(10))
  t.match(more.text, /too many client metadata documents/, 'the stranger\'s own site is still held to its budget')
  t.comment(`the real app's sign-in page: ${real.status}, ${/too many client metadata documents/.test(real.text) ? 'refused: too many documents' : 'served'}`)
  t.notOk(documents.hits.includes('/real-app.json') && real.status !== 200, 'a document fetched is a page served')
})
