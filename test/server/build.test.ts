import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { callTool, connectClient, eventually, startHome, tempDataDir } from '../helper.ts'
import { portFrom, ROOT, startProcess } from './process-helper.ts'

// What the image runs: `npm run build`, then `node dist/app/server.js` with nothing but the environment.
t.test('the production build starts, serves MCP and the ingress page, and stops cleanly', async t => {
  rmSync(join(ROOT, 'dist'), { recursive: true, force: true })
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'pipe' })
  const built = readdirSync(join(ROOT, 'dist'), { recursive: true, encoding: 'utf8' }).filter(f => f.endsWith('.js'))
  t.same(built.filter(f => /(^|\/)demo(\/|\.js$)/.test(f)), [], 'no simulator file in dist/')
  t.same(built.filter(f => /from '[^']*\/demo\//.test(readFileSync(join(ROOT, 'dist', f), 'utf8'))), [], 'no built file imports the simulator')
  t.ok(built.includes(join('app', 'server.js')), 'the server entry is built')
  const home = await startHome(t)
  const server = startProcess(t, { HA_URL: home.url, HA_TOKEN: home.token, DATA_DIR: tempDataDir(t), MCP_API_TOKEN: 'build-test-token-0123456789' }, [process.execPath, 'dist/app/server.js'])
  await eventually(() => portFrom(server.lines, 'ingress page listening') > 0, 30_000, 'both servers to listen')
  const mcpPort = portFrom(server.lines, 'MCP server listening')
  const ingressPort = portFrom(server.lines, 'ingress page listening')

  await eventually(async () => {
    const health = await (await fetch(`http://127.0.0.1:${mcpPort}/health`)).json() as { websocket: boolean }
    return health.websocket
  }, 15_000, 'Home Assistant connected')
  const client = await connectClient(t, { url: `http://127.0.0.1:${mcpPort}` }, 'build-test-token-0123456789')
  const { tools } = await client.listTools()
  t.ok(tools.length >= 28, `every read tool loaded from dist (${tools.length})`)
  const areas = await callTool(client, 'ha_list_areas')
  t.notOk(areas.isError, 'a tool answers')
  await client.close()

  const page = await fetch(`http://127.0.0.1:${ingressPort}/`)
  t.equal(page.status, 200, 'the ingress page is served from the build')
  t.match(await page.text(), /<html/i)

  server.child.kill('SIGTERM')
  t.equal(await server.exit, 0, 'SIGTERM exits 0')
  t.notOk(server.lines.join('\n').includes('build-test-token-0123456789'), 'the token is never logged in full')
})
