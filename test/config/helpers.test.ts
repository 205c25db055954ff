// The pieces a human relies on before confirming a config edit: readable YAML, an exact diff, a stable hash.
import t from 'tap'
import { parse } from 'yaml'
import { configHash, toYaml } from '../../tools/_shared/config-yaml.ts'
import { unifiedDiff } from '../../tools/_shared/line-diff.ts'

/** Applies a unified diff to `before`, to prove the hunks are exact. */
function applyDiff (before: string, diff: string): string {
  const lines = before.replace(/\n$/, '').split('\n')
  const out: string[] = []
  let cursor = 0
  const body = diff.split('\n').slice(2).filter(l => l !== '')
  for (let i = 0; i < body.length; i++) {
    const header = /^@@ -(\d+),(\d+) \+\d+,\d+ @@$/.exec(body[i] as string)
    if (!header) continue
    const oldStart = Number(header[1])
    const from = Number(header[2]) === 0 ? oldStart : oldStart - 1
    while (cursor < from) out.push(lines[cursor++] as string)
    for (i++; i < body.length && !(body[i] as string).startsWith('@@'); i++) {
      const line = body[i] as string
      if (line.startsWith(' ')) { out.push(lines[cursor++] as string) } else if (line.startsWith('-')) cursor++
      else out.push(line.slice(1))
    }
    i--
  }
  while (cursor < lines.length) out.push(lines[cursor++] as string)
  return `${out.join('\n')}\n`
}

t.test('toYaml renders a config the way the YAML editor shows it and reads back identically', async t => {
  const config = { alias: 'Wake up', triggers: [{ trigger: 'time', at: '07:00:00' }], actions: [{ action: 'light.turn_on', target: { entity_id: 'light.bedroom' }, data: { message: 'x'.repeat(200) } }] }
  const yaml = toYaml(config)
  t.match(yaml, /^alias: Wake up\ntriggers:\n {2}- trigger: time\n/)
  t.notMatch(yaml, /[&*]\w/, 'no anchors or aliases')
  t.same(parse(yaml), config)
  t.equal(yaml.split('\n').filter(l => l.includes('xxxx')).length, 1, 'long strings are not folded')
})

t.test('configHash ignores key order and changes with any value', async t => {
  const a = { alias: 'A', triggers: [{ at: '07:00', trigger: 'time' }] }
  const b = { triggers: [{ trigger: 'time', at: '07:00' }], alias: 'A' }
  t.equal(configHash(a), configHash(b))
  t.match(configHash(a), /^[0-9a-f]{16}$/)
  t.not(configHash(a), configHash({ ...a, alias: 'B' }))
  t.not(configHash({ list: [1, 2] }), configHash({ list: [2, 1] }), 'array order matters')
  t.equal(configHash(undefined), 'none')
})

t.test('unifiedDiff shows a shortest edit script', async t => {
  const diff = unifiedDiff('a\nb\nc\na\nb\nb\na\n', 'c\nb\na\nb\na\nc\n')
  const edits = diff.split('\n').slice(2).filter(line => /^[-+]/.test(line))
  t.equal(edits.length, 5, 'Myers example: 5 edits')
  t.equal(applyDiff('a\nb\nc\na\nb\nb\na\n', diff), 'c\nb\na\nb\na\nc\n')
  t.equal(unifiedDiff('', 'x\n'), '--- a\n+++ b\n@@ -0,0 +1,1 @@\n+x\n')
  t.equal(unifiedDiff('x\n', ''), '--- a\n+++ b\n@@ -1,1 +0,0 @@\n-x\n')
})

t.test('unifiedDiff: headers, hunks with three lines of context, exact line numbers', async t => {
  const before = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n') + '\n'
  const after = before.replace('line 2\n', 'line two\n').replace('line 18\n', '').concat('line 21\n')
  const diff = unifiedDiff(before, after, { from: 'automation.wake_up (current)', to: 'automation.wake_up (proposed)' })
  t.equal(diff, [
    '--- automation.wake_up (current)',
    '+++ automation.wake_up (proposed)',
    '@@ -1,5 +1,5 @@',
    ' line 1',
    '-line 2',
    '+line two',
    ' line 3',
    ' line 4',
    ' line 5',
    '@@ -15,6 +15,6 @@',
    ' line 15',
    ' line 16',
    ' line 17',
    '-line 18',
    ' line 19',
    ' line 20',
    '+line 21',
    ''
  ].join('\n'))
  t.equal(applyDiff(before, diff), after)
  t.equal(unifiedDiff(before, before), '', 'no change, no diff')
})

t.test('unifiedDiff from nothing and to nothing', async t => {
  t.equal(unifiedDiff('', 'a\nb\n'), '--- a\n+++ b\n@@ -0,0 +1,2 @@\n+a\n+b\n')
  t.equal(unifiedDiff('a\n', ''), '--- a\n+++ b\n@@ -1,1 +0,0 @@\n-a\n')
})

t.test('unifiedDiff round-trips random edits', async t => {
  let seed = 7
  const random = (n: number): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n }
  for (let round = 0; round < 40; round++) {
    const before = Array.from({ length: random(40) }, () => `l${random(6)}`)
    const after = before.filter(() => random(4) !== 0).flatMap(l => random(5) === 0 ? [l, `n${random(6)}`] : [l])
    const a = before.length ? `${before.join('\n')}\n` : ''
    const b = after.length ? `${after.join('\n')}\n` : ''
    const diff = unifiedDiff(a, b)
    if (a === b) t.equal(diff, '')
    else t.equal(applyDiff(a, diff), b || '\n', `round ${round}`)
  }
})
