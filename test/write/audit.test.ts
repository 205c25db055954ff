import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { AuditLog } from '../../src/policy/audit.ts'
import { callTool, connectClient, startHome, startServer, TEST_TOKEN } from '../helper.ts'
import { writeCatalog } from './catalog.ts'

t.test('audit lines reach stderr and audit.log at log_level fatal, and never carry a token', async t => {
  const stderr: string[] = []
  const original = process.stderr.write.bind(process.stderr)
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    stderr.push(String(chunk))
    return (original as (...args: unknown[]) => boolean)(chunk, ...rest)
  }) as typeof process.stderr.write
  t.teardown(() => { process.stderr.write = original })

  const home = await startHome(t)
  const server = await startServer(t, { home, logLevel: 'fatal', options: { allow_write: true }, app: { catalog: await writeCatalog() } })
  const second = await server.app.services.tokens.create({ name: 'kitchen tablet', scopes: ['read', 'write'] })
  const client = await connectClient(t, server)
  const tablet = await connectClient(t, server, second.token)

  await callTool(client, 'ha_call_service', { domain: 'light', service: 'turn_off', target: { entity_id: 'light.living_room_ceiling_light' } })
  await callTool(client, 'ha_call_service', { domain: 'shell_command', service: 'backup' })
  const asked = await callTool(tablet, 'ha_call_service', { domain: 'lock', service: 'unlock', target: { entity_id: 'lock.front_door_lock' } })
  await callTool(tablet, 'ha_call_service', { domain: 'lock', service: 'unlock', target: { entity_id: 'lock.front_door_lock' }, confirm_token: asked.json.confirm_token })
  await callTool(client, 'ha_call_service', { domain: 'lock', service: 'unlock', target: { entity_id: 'lock.front_door_lock' }, confirm_token: asked.json.confirm_token })

  const lines = stderr.join('').split('\n').filter(line => line.startsWith('{"ts":') && line.includes('"audit":true'))
  const entries = lines.map(line => JSON.parse(line) as Record<string, unknown>)
  t.same(entries.map(e => e.outcome), ['allowed', 'refused', 'confirmation_asked', 'confirmation_given', 'refused'], 'one line per attempt, whatever the log level')
  t.equal(entries[3]?.identity_name, 'kitchen tablet', 'the audit names the token')
  t.equal(entries[1]?.reason, 'service_denylist')

  // mcp-ha's documented shape, which people parse: ts first, allowed with result or reason.
  t.same(Object.keys(entries[0] ?? {}).slice(0, 8), ['ts', 'audit', 'tool', 'domain', 'service', 'target', 'allowed', 'result'], 'mcp-ha\'s fields lead, in its order')
  t.match(entries[0], { audit: true, tool: 'ha_call_service', domain: 'light', service: 'turn_off', target: { entity_id: ['light.living_room_ceiling_light'] }, allowed: true, result: 'ok', outcome: 'allowed' })
  t.equal(entries[0]?.ts, entries[0]?.time, 'ts next to our own time field')
  t.ok(!Number.isNaN(Date.parse(String(entries[0]?.ts))))
  t.match(entries[1], { allowed: false, reason: 'service_denylist', outcome: 'refused' })
  t.notOk('result' in (entries[1] ?? {}), 'a refusal has a reason, no result')
  t.match(entries[2], { allowed: false, reason: 'confirmation_required', outcome: 'confirmation_asked' })
  t.match(entries[3], { allowed: true, result: 'ok', outcome: 'confirmation_given' })
  t.match(entries[4], { allowed: false, reason: 'confirm_token_unknown' })

  const file = readFileSync(join(server.dataDir, 'audit.log'), 'utf8').trim().split('\n')
  t.equal(file.length, 5, 'the same lines are in audit.log')
  t.same(server.app.services.policy.audit.recent(2).map(e => e.outcome), ['refused', 'confirmation_given'], 'recent() is newest first')
  t.equal(server.logs.length, 0, 'fatal silences the ordinary log, not the audit')

  const everything = [...stderr, ...file, ...server.logs].join('\n')
  for (const secret of [TEST_TOKEN, second.token, asked.json.confirm_token as string]) {
    t.notOk(everything.includes(secret), 'no bearer or confirm token in any log or audit line')
  }
})

t.test('audit.log rotates at the configured size, keeping one old generation', async t => {
  const dir = mkdtempSync(join(tmpdir(), 'audit-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const written: string[] = []
  const audit = new AuditLog({ file: join(dir, 'audit.log'), rotateBytes: 1000, write: line => { written.push(line) }, ringSize: 5 })
  for (let i = 0; i < 40; i++) audit.record({ tool: 'ha_call_service', identity: 'primary', identity_name: 'primary token', outcome: 'allowed', domain: 'light', service: `turn_on_${i}` })
  t.ok(existsSync(join(dir, 'audit.log.1')), 'old generation kept')
  t.notOk(existsSync(join(dir, 'audit.log.2')), 'only one old generation')
  t.ok(statSync(join(dir, 'audit.log')).size <= 1000, 'current file under the rotation size')
  t.ok(statSync(join(dir, 'audit.log.1')).size <= 1000)
  t.match(readFileSync(join(dir, 'audit.log'), 'utf8'), /turn_on_39/, 'newest line in the current file')
  t.equal(written.length, 40, 'every line mirrored to the sink')
  t.same(audit.recent(10).map(e => e.service), ['turn_on_39', 'turn_on_38', 'turn_on_37', 'turn_on_36', 'turn_on_35'], 'ring bounded, newest first')
})

t.test('an unwritable audit file warns once and keeps the sink', async t => {
  const dir = mkdtempSync(join(tmpdir(), 'audit-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  writeFileSync(join(dir, 'data'), 'a file where a directory should be')
  const warnings: string[] = []
  const lines: string[] = []
  const audit = new AuditLog({ file: join(dir, 'data', 'audit.log'), write: line => { lines.push(line) }, warn: message => { warnings.push(message) } })
  audit.record({ tool: 'x', identity: 'primary', identity_name: 'p', outcome: 'refused' })
  audit.record({ tool: 'x', identity: 'primary', identity_name: 'p', outcome: 'refused' })
  t.equal(warnings.length, 1)
  t.equal(lines.length, 2)
})

t.test('a call naming 190,000 ids leaves a short audit line: the first ids and a count, in the file and in memory', async t => {
  // One refused call with a 2.3 MB comma-separated entity_id wrote a 5.4 MB line (the target and the
  // entities, whole), past the 1 MB rotation, and the last 200 such entries stayed in memory.
  const dir = mkdtempSync(join(tmpdir(), 'audit-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const written: string[] = []
  const audit = new AuditLog({ file: join(dir, 'audit.log'), write: line => { written.push(line) } })
  const ids = Array.from({ length: 190_000 }, (_, i) => `light.x${i}`)
  for (let i = 0; i < 19; i++) {
    audit.record({ tool: 'ha_call_service', identity: 'primary', identity_name: 'primary token', outcome: 'refused', reason: 'target_not_found', domain: 'light', service: 'turn_on', entities: ids, target: { entity_id: ids, area_id: ['kitchen'] } })
  }
  t.ok(statSync(join(dir, 'audit.log')).size <= 1_000_000, `audit.log at most 1 MB (${statSync(join(dir, 'audit.log')).size} bytes)`)
  t.ok(!existsSync(join(dir, 'audit.log.1')) || statSync(join(dir, 'audit.log.1')).size <= 1_000_000, 'its old generation too')
  const line = JSON.parse(written[0] ?? '{}') as { entities: string[], target: { entity_id: string[], area_id: string[] } }
  t.ok((written[0] ?? '').length < 10_000, `a line of ${(written[0] ?? '').length} characters`)
  t.same(line.entities.slice(0, 3), ['light.x0', 'light.x1', 'light.x2'], 'the first ids, as named')
  t.match(line.entities.at(-1), /189,?9\d\d more/, 'and how many more')
  t.match(line.target.entity_id.at(-1), /more/, 'the target summarised the same way')
  t.same(line.target.area_id, ['kitchen'], 'short lists are kept whole')
  const kept = audit.recent(200)
  t.equal(kept.length, 19)
  t.ok(JSON.stringify(kept).length < 19 * 1000, `in memory, ${JSON.stringify(kept).length} characters for 19 entries`)
  t.match(kept[0]?.entities?.at(-1), /more/, 'a count in memory too')
})

/**
 * Red team: a secret the assistant passes in a call (an alarm code, a confirm token)
 * never lands in the add-on's log, at any level, nor in the audit; an owner who turns on `trace` to
 * debug and pastes the Log tab into a bug report must not publish the code that disarms the house.
 */

const ALARM = 'alarm_control_panel.home_alarm'
const CODE = '1234'

t.test('an alarm code and a confirm token stay out of the log at trace level and out of the audit', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, logLevel: 'trace', options: { allow_write: true } })
  const client = await connectClient(t, server)
  home.setState(ALARM, 'armed_away')
  const args = { domain: 'alarm_control_panel', service: 'alarm_disarm', target: { entity_id: ALARM }, data: { code: CODE } }
  const asked = await callTool(client, 'ha_call_service', args)
  t.equal(asked.json?.confirmation_required, true, asked.text)
  const token = asked.json?.confirm_token as string
  const done = await callTool(client, 'ha_call_service', { ...args, confirm_token: token })
  t.notOk(done.isError, done.text)
  t.equal(home.getState(ALARM)?.state, 'disarmed', 'the call itself went through')

  t.ok(server.logs.some(line => line.includes('tool arguments')), 'trace logs the arguments')
  const leaked = server.logs.filter(line => line.includes(`"${CODE}"`) || line.includes(`:${CODE}`) || line.includes(token))
  t.same(leaked, [], 'no log line carries the code or the confirm token')
  const audit = readFileSync(join(server.dataDir, 'audit.log'), 'utf8')
  t.notOk(audit.includes(CODE) && audit.includes('"code"'), 'audit.log does not carry the code')
  t.notOk(audit.includes(token), 'audit.log does not carry the confirm token')
})
