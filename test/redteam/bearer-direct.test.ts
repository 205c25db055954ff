// The bearer check since 39f0748 (one-shot sha256, named tokens' hashes kept as bytes): every stored
// hash is still compared whichever token matches (no exit that depends on the secret), a named token
// revoked or created mid-flight is seen by the very next request, and a regenerated primary token is
// refused at once, on the direct path of read calls too.
import t from 'tap'
import { PRIMARY_IDENTITY } from '../../src/auth/identity.ts'
import { rpc, startHome, startServer, tempDataDir } from '../helper.ts'

t.test('every stored hash is compared, whichever token is presented', async t => {
  let compared = 0
  const { TokenStore } = await t.mockImport<typeof import('../../src/auth/tokens.ts')>('../../src/auth/tokens.ts', {
    'node:crypto': {
      ...await import('node:crypto'),
      timingSafeEqual: (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView): boolean => { compared++; return Buffer.compare(a as Buffer, b as Buffer) === 0 }
    }
  })
  const store = new TokenStore({ dataDir: tempDataDir(t), primary: 'the-primary-token-0123456789' })
  const made: string[] = []
  for (let i = 0; i < 5; i++) made.push((await store.create({ name: `t${i}`, levels: { '*': 'read' } })).token)
  for (const [label, presented] of [['the primary', 'the-primary-token-0123456789'], ['the first named', made[0]], ['the last named', made[4]], ['an unknown one', 'nope-nope-nope-nope']] as const) {
    compared = 0
    store.verify(presented as string)
    t.equal(compared, 6, `${label}: the primary and all five named hashes compared`)
  }
  t.same(store.verify(made[2] as string)?.name, 't2', 'the right identity')
  t.same(store.verify('the-primary-token-0123456789'), PRIMARY_IDENTITY)
})

t.test('a revoked, created or regenerated token on the direct path', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home })
  const { tokens } = server.app.services
  const light = home.entityIds().find(id => id.startsWith('light.')) as string
  const get = async (token: string): Promise<number> => (await rpc(server.url, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ha_get_entity', arguments: { entity_id: light } } }, { authorization: `Bearer ${token}` })).status
  const a = await tokens.create({ name: 'a', levels: { '*': 'read' } })
  t.equal(await get(a.token), 200, 'a new token works at once')
  const b = await tokens.create({ name: 'b', levels: { '*': 'read' } })
  t.equal(await get(b.token), 200, 'and one made after the hashes were kept')
  t.equal(await get(a.token), 200, 'the first still works')
  await tokens.revoke(a.entry.id)
  t.equal(await get(a.token), 401, 'a revoked token is refused by the next request')
  t.equal(await get(b.token), 200, 'the other is not')
  const old = server.token
  tokens.replacePrimary('a-brand-new-primary-token-0123456789', 'generated')
  t.equal(await get(old), 401, 'the regenerated primary token is refused at once')
  t.equal(await get('a-brand-new-primary-token-0123456789'), 200, 'the new one works')
})
