import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { connectClient, eventually, tempDataDir } from '../helper.ts'
import { ROOT, startProcess } from './process-helper.ts'

const TSX = join(ROOT, 'node_modules/.bin/tsx')
const FLAGS = ['--allow-write', '--allow-config-write', '--allow-camera', '--sessions', '--options FILE', '--help']

// `npm run demo -- --help` and a wrong flag: usage, no Node stack trace.
t.test('npm run demo -- --help prints the usage with every flag and exits 0', async t => {
  const demo = startProcess(t, { DATA_DIR: tempDataDir(t) }, ['npm', 'run', '--silent', 'demo', '--', '--help'])
  t.equal(await demo.exit, 0)
  const out = demo.lines.join('\n')
  t.match(out, /^Usage: npm run demo -- \[flags\]/m)
  for (const flag of FLAGS) t.ok(out.includes(flag), `${flag} is described`)
})

t.test('an unknown flag, a missing value or a bad number: one clear line, the usage, exit 2', async t => {
  for (const [args, message] of [
    [['--frobnicate'], /^demo: Unknown option '--frobnicate'/],
    [['--port'], /^demo: Option '--port <value>' argument missing/],
    [['--port', 'abc'], /^demo: --port wants a whole number, not "abc"/],
    [['--options', '/nonexistent/options.json'], /^demo: --options \/nonexistent\/options.json: no such file/],
    [['stray'], /^demo: Unexpected argument 'stray'/]
  ] as Array<[string[], RegExp]>) {
    const demo = startProcess(t, { DATA_DIR: tempDataDir(t) }, [TSX, 'scripts/demo.ts', ...args])
    t.equal(await demo.exit, 2, `${args.join(' ')}: exit 2`)
    t.match(demo.lines[0], message, `${args.join(' ')}: says what is wrong`)
    t.ok(demo.lines.some(line => line.startsWith('Usage: npm run demo')), `${args.join(' ')}: shows the usage`)
    t.notOk(demo.lines.some(line => /^\s+at /.test(line) || line.includes('Node.js v')), `${args.join(' ')}: no stack trace`)
  }
})

t.test('the option flags switch the options on, over an options file', async t => {
  const dir = tempDataDir(t)
  const file = join(dir, 'options.json')
  writeFileSync(file, JSON.stringify({ allow_write: false, entity_denylist: ['lock.*'] }))
  const demo = startProcess(t, { DATA_DIR: dir }, [TSX, 'scripts/demo.ts', '--port', '0', '--ingress-port', '0', '--entities', '60', '--options', file, '--allow-write', '--allow-config-write', '--allow-camera', '--sessions'])
  await eventually(() => demo.lines.some(line => line.startsWith('Ctrl+C')), 30_000, 'the demo banner')
  t.ok(demo.lines.some(line => line.includes('allow_write=true, allow_config_write=true, allow_camera=true, enable_sessions=true')), 'the banner shows the options in force')
  const mcpUrl = (demo.lines.find(line => line.startsWith('MCP endpoint:')) ?? '').slice('MCP endpoint:'.length).trim()
  const token = (demo.lines.find(line => line.startsWith('Token:')) ?? '').slice('Token:'.length).trim().split(/\s+/)[0] ?? ''
  const client = await connectClient(t, { url: mcpUrl.replace(/\/mcp$/, '') }, token)
  const names = (await client.listTools()).tools.map(tool => tool.name)
  t.ok(names.includes('ha_call_service'), '--allow-write: the write tools are there (the file said false)')
  t.ok(names.includes('ha_create_automation'), '--allow-config-write: the configuration tools are there')
  t.ok(names.includes('ha_get_camera_snapshot'), '--allow-camera: the camera tool is there')
  const statusUrl = (demo.lines.find(line => line.startsWith('Status page:')) ?? '').slice('Status page:'.length).trim().split(/\s+/)[0] ?? ''
  const overview = await (await fetch(`${statusUrl}api/overview`)).json() as { options: Record<string, unknown> }
  t.match(overview.options, { allow_write: true, allow_config_write: true, allow_camera: true, enable_sessions: true, entity_denylist: ['lock.*'] }, 'the flags and the rest of the file are both in force')
  await client.close()
  demo.child.kill('SIGTERM')
  t.equal(await demo.exit, 0)
})
