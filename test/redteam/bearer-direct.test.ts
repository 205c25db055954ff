// The bearer check since 39f0748 (one-shot sha256, named tokens' hashes kept as bytes): every stored
// hash is still compared whichever token matches (no exit that depends on the secret), a named token
// revoked or created mid-flight is seen by the very next request, and a regenerated primary token is
// refused at once, on the direct path of read calls too.
import t from 'tap'
import { PRIMARY_IDENTITY } from '../../src/auth/identity.ts'
import { rpc, startHome, startServer, tempDataDir } from '../helper.ts'

t.test('every stored hash is compared, whichever token is presented', async t => {
  // Hashes are 32 bytes; the recently verified tokens (kept in clear since the perf pass) are compared as they are.
  let hashes = 0
  let kept = 0
  const { TokenStore } = await t.mockImport<typeof import('../../src/auth/tokens.ts')>('../../src/auth/tokens.ts', {
    'node:crypto': {
      ...await import('node:crypto'),
      timingSafeEqual: (a: Buffer, b: Buffer): boolean => {
        if (a.length === 32 && b.length === 32) hashes++
        else kept++
        return Buffer.compare(a, b) === 0
      }
    }
  })
  const primary = 'the-primary-token-0123456789'
  const store = new TokenStore({ dataDir: tempDataDir(t), primary })
  const made: string[] = []
  for (let i = 0; i < 5; i++) made.push((await store.create({ name: `t${i}`, levels: { '*': 'read' } })).token)
  const verify = (presented: string): { hashes: number, kept: number, name: string | undefined } => {
    hashes = 0
    kept = 0
    const name = store.verify(presented)?.name
    return { hashes, kept, name }
  }
  t.same(verify('nope-nope-nope-nope'), { hashes: 6, kept: 0, name: undefined }, 'an unknown token: the primary and all five named hashes compared')
  t.same(verify(primary), { hashes: 6, kept: 0, name: 'primary token' }, 'the primary, first time: every hash')
  t.same(verify(made[4] as string), { hashes: 6, kept: 0, name: 't4' }, 'the last named, first time: every hash')
  t.same(verify(made[0] as string), { hashes: 6, kept: 1, name: 't0' }, 'the first named, first time: the kept token of its length, then every hash')
  // Kept now, newest first: t0, t4 (the primary's length differs, so it is not compared with them).
  t.same(verify(made[0] as string), { hashes: 0, kept: 2, name: 't0' }, 'a kept token matching first: every kept token of its length still compared')
  t.same(verify(made[4] as string), { hashes: 0, kept: 2, name: 't4' }, 'a kept token matching last: the same count')
  t.same(verify(made[2] as string), { hashes: 6, kept: 2, name: 't2' }, 'a token not kept: the kept ones, then every hash')
  await store.revoke(store.list().find(token => token.name === 't4')?.id as string)
  t.same(verify(made[4] as string), { hashes: 5, kept: 0, name: undefined }, 'revoked: forgotten at once, every remaining hash compared')
  t.same(store.verify(primary), PRIMARY_IDENTITY)
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
