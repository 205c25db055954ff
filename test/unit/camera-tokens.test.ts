// Every answer passes CameraTokens.scrub: it must catch each remembered token wherever it sits in the
// text (alone, inside a URL, glued to other letters and digits), rotated ones too, and leave the rest.
import { createHash } from 'node:crypto'
import t from 'tap'
import { CameraTokens } from '../../src/home/camera-tokens.ts'

const hex = (seed: number): string => createHash('sha256').update(String(seed)).digest('hex')
const REDACTED = '[redacted camera token]'

t.test('a remembered token is redacted wherever it appears, and nothing else is touched', async t => {
  const tokens = new CameraTokens()
  const [a, b, c] = [hex(1), hex(2), hex(3)]
  tokens.observe([{ entity_id: 'camera.door', attributes: { access_token: a } }, { entity_id: 'camera.yard', attributes: { access_token: b } }])
  t.equal(tokens.scrub(`{"t":"${a}"}`), `{"t":"${REDACTED}"}`, 'a token alone')
  t.equal(tokens.scrub(`/api/camera_proxy/camera.yard?token=${b}&x=1`), `/api/camera_proxy/camera.yard?token=${REDACTED}&x=1`, 'in a URL')
  t.equal(tokens.scrub(`zz${a}99 and ${b}${b}`), `zz${REDACTED}99 and ${REDACTED}${REDACTED}`, 'glued to other letters and digits, or to itself')
  const plain = `no token here: ${c} ${'f'.repeat(200)} light.kitchen`
  t.equal(tokens.scrub(plain), plain, 'an unknown hex run and long words stay')
  // The camera rotates its token: the previous one still opens the proxy for a while.
  tokens.observe([{ entity_id: 'camera.door', attributes: { access_token: c } }])
  t.equal(tokens.scrub(`${a} ${c}`), `${REDACTED} ${REDACTED}`, 'the rotated-out token and the new one')
})

t.test('a token that is not letters and digits only is still found', async t => {
  const tokens = new CameraTokens()
  tokens.observe([{ entity_id: 'camera.odd', attributes: { access_token: 'abc-def_123.xyz' } }, { entity_id: 'camera.short', attributes: { access_token: 'short' } }])
  t.equal(tokens.scrub('x abc-def_123.xyz y short'), `x ${REDACTED} y short`, 'found; a token under 8 characters is not remembered')
})
