// Attacks on ha_undo's forcing confirmation: the token that forces an undo over newer work must act
// only on the record and the changes it showed, for the identity it was given to.
import t from 'tap'
import { connectClient, eventually, startHome, startServer } from '../helper.ts'
import { call, ownerCommand } from './_owner.ts'

t.test('a forcing undo confirmation acts only on what it showed', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true, allow_config_write: true } })
  const client = await connectClient(t, server)
  const offLights = (): string[] => home.entityIds().filter(id => id.startsWith('light.') && home.getState(id)?.state === 'off')

  /** The add-on turns a light on at 100, the owner dims it: ha_undo answers a conflict with a forcing token. */
  async function conflicted (light: string): Promise<string> {
    const on = await call(client, 'ha_call_service', { domain: 'light', service: 'turn_on', target: { entity_id: light }, data: { brightness: 100 } })
    t.notOk(on.isError, on.text)
    await ownerCommand(home, { type: 'call_service', domain: 'light', service: 'turn_on', target: { entity_id: light }, service_data: { brightness: 30 } })
    await eventually(() => server.app.services.ha.states.get(light)?.attributes.brightness === 30, 5000, 'the owner\'s change seen')
    const undone = await call(client, 'ha_undo')
    t.equal(undone.code, 'HAMCP_CONFLICT', undone.text)
    return undone.details.confirm_token as string
  }

  t.test('the owner changes it again after the conflict was shown: the force token does not overwrite that', async t => {
    const light = offLights()[0]!
    const token = await conflicted(light)
    await ownerCommand(home, { type: 'call_service', domain: 'light', service: 'turn_on', target: { entity_id: light }, service_data: { brightness: 10 } })
    await eventually(() => server.app.services.ha.states.get(light)?.attributes.brightness === 10, 5000, 'the second change seen')
    home.clearServiceCalls()
    const forced = await call(client, 'ha_undo', { confirm_token: token })
    t.equal(forced.isError, true, forced.text)
    t.same(home.serviceCalls, [], 'nothing reached the house')
    t.equal(home.getState(light)?.attributes.brightness, 10, 'the owner\'s newest brightness is kept')
  })

  // Found by attack: the guard ignored a confirm_token on a write that needs no confirmation, so the
  // force token shown for the first light's undo undid a newer, unconflicted write instead. A token
  // presented to any write is now redeemed, and one bound to another call is refused.
  t.test('a newer write by the add-on since: the old force token does not undo it', async t => {
    const [first, second] = offLights()
    const token = await conflicted(first!)
    const other = await call(client, 'ha_call_service', { domain: 'light', service: 'turn_on', target: { entity_id: second }, data: { brightness: 50 } })
    t.notOk(other.isError, other.text)
    home.clearServiceCalls()
    const forced = await call(client, 'ha_undo', { confirm_token: token })
    t.equal(forced.isError, true, forced.text)
    t.equal(forced.code, 'HAMCP_CONFIRM_TOKEN_INVALID')
    t.same(home.serviceCalls, [], 'nothing reached the house')
    t.equal(home.getState(second!)?.state, 'on', 'the newer write stands')
  })

  t.test('another identity: neither its undo nor the force token acts on this identity\'s write', async t => {
    const light = offLights()[0]!
    const token = await conflicted(light)
    const { token: tablet } = await server.app.services.tokens.create({ name: 'tablet', scopes: ['read', 'write'] })
    const other = await connectClient(t, server, tablet)
    home.clearServiceCalls()
    const foreign = await call(other, 'ha_undo', { confirm_token: token })
    t.equal(foreign.isError, true, foreign.text)
    const plain = await call(other, 'ha_undo')
    t.equal(plain.code, 'HAMCP_NOT_FOUND', 'the tablet has nothing of its own to undo')
    t.same(home.serviceCalls, [], 'nothing reached the house')
    t.equal(home.getState(light)?.attributes.brightness, 30)
    // The foreign attempt never reached the store: the owner's own confirmation still works, for its record.
    const forced = await call(client, 'ha_undo', { confirm_token: token })
    t.notOk(forced.isError, forced.text)
    t.equal(home.getState(light)?.state, 'off', 'the owner\'s client forced its own undo')
  })
})
