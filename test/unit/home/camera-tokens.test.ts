// Every answer passes CameraTokens.scrub: it must catch each remembered token wherever it sits in the
// text (alone, inside a URL, glued to other letters and digits), rotated ones too, and leave the rest.
import { createHash } from 'node:crypto'
import t from 'tap'
import { CameraTokens } from '../../../src/home/camera-tokens.ts'

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

t.test('the scan finds what a regex over runs of letters and digits finds, on any text', async t => {
  // The reference: every maximal run of letters and digits at least as long as the shortest token,
  // each checked whole, then for a token inside it. The scan must redact exactly the same.
  const reference = (text: string, tokens: string[]): string => {
    const shortest = Math.min(...tokens.map(token => token.length))
    const each = (run: string): string => tokens.reduce((out, token) => out.split(token).join(REDACTED), run)
    return text.replace(new RegExp(`(?<![A-Za-z0-9])[A-Za-z0-9]{${shortest},}`, 'g'), run => tokens.includes(run) ? REDACTED : run.length > shortest ? each(run) : run)
  }
  const known = [hex(10), hex(11), hex(12).slice(0, 40)]
  const tokens = new CameraTokens()
  tokens.observe(known.map((token, i) => ({ entity_id: `camera.c${i}`, attributes: { access_token: token } })))
  // A deterministic generator: texts of words, separators, runs just under, at and over the shortest
  // length, the tokens alone, glued together or inside longer runs, at the text's start and end.
  let seed = 7
  const next = (n: number): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n }
  const pieces = (): string => {
    const choice = next(9)
    if (choice === 0) return known[next(known.length)] as string
    if (choice === 1) return `${known[next(known.length)] as string}${known[next(known.length)] as string}`
    if (choice === 2) return `ab${known[next(known.length)] as string}9`
    if (choice === 3) return 'f'.repeat(35 + next(12))
    if (choice === 4) return hex(next(1000)).slice(0, 30 + next(34))
    if (choice === 5) return ['"', ' ', '?token=', '&', '\n', 'é', '_', '-', '.'][next(9)] as string
    return ['light', 'kitchen', 'x', '42', 'Ab9', 'étage'][next(6)] as string
  }
  let same = 0
  for (let i = 0; i < 2000; i++) {
    const text = Array.from({ length: next(12) }, pieces).join('')
    if (tokens.scrub(text) === reference(text, known)) same++
    else t.fail(`differs on ${JSON.stringify(text)}`)
  }
  t.equal(same, 2000, 'every text cleaned exactly as the regex cleans it')
  const untouched = '{"entity_id":"light.kitchen","name":"Kitchen","state":"on"}'
  t.equal(tokens.scrub(untouched), untouched, 'a text without a long run comes back as it was')
})
