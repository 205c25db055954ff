// SSRF through a client ID metadata document URL spelled as an odd address literal or a name that
// resolves to a special-use address: every form is refused before any connection.
import t from 'tap'
import { ClientDocuments } from '../../src/oauth/client-documents.ts'
import { documentNetwork, refusal, startDocumentServer } from './_document-server.ts'

t.test('decimal, hex, short, zero and IPv6-mapped literals, and names of loopback/metadata addresses', async t => {
  const server = await startDocumentServer(t)
  const network = documentNetwork(server, {
    'localhost.': ['127.0.0.1'],
    'metadata.test': ['169.254.169.254'],
    'nat64.test': ['64:ff9b::7f00:1'],
    'compat.test': ['::127.0.0.1'],
    'zero.test': ['0.0.0.0'],
    'six-to-four.test': ['2002:7f00:1::1']
  })
  // The product's own address check (no addressAllowed override).
  const documents = new ClientDocuments({ resolve: network.resolve, ca: network.ca })
  const port = server.port
  const ids = [
    `https://2130706433:${port}/app.json`,
    `https://0x7f000001:${port}/app.json`,
    `https://0177.0.0.1:${port}/app.json`,
    `https://127.1:${port}/app.json`,
    `https://0:${port}/app.json`,
    `https://[::ffff:127.0.0.1]:${port}/app.json`,
    `https://[::ffff:7f00:1]:${port}/app.json`,
    `https://[0:0:0:0:0:ffff:7f00:1]:${port}/app.json`,
    `https://[::127.0.0.1]:${port}/app.json`,
    `https://[fe80::1]:${port}/app.json`,
    `https://localhost.:${port}/app.json`,
    `https://metadata.test:${port}/app.json`,
    `https://nat64.test:${port}/app.json`,
    `https://compat.test:${port}/app.json`,
    `https://zero.test:${port}/app.json`,
    `https://six-to-four.test:${port}/app.json`
  ]
  for (const [i, id] of ids.entries()) {
    // Each from its own peer, so the per-peer fetch cap does not answer in the check's place.
    t.equal(await refusal(documents.client(id, `peer-${i}`)), 'address_refused', id)
  }
  t.same(server.hits, [], 'the document server was never reached')
})
