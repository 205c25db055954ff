import { join } from 'node:path'
import t from 'tap'
import { callTool, connectClient, eventually, tempDataDir } from '../helper.ts'
import { ROOT, startProcess } from './process-helper.ts'

// `npm run demo`: the one-command try-out must print a working URL and token, and the status page.
t.test('npm run demo prints a URL and token that work, and serves the status page', async t => {
  const demo = startProcess(t, { DATA_DIR: tempDataDir(t) }, [join(ROOT, 'node_modules/.bin/tsx'), 'scripts/demo.ts', '--port', '0', '--ingress-port', '0', '--entities', '200'])
  await eventually(() => demo.lines.some(line => line.startsWith('Ctrl+C')), 30_000, 'the demo banner')
  const field = (label: string): string => (demo.lines.find(line => line.startsWith(label)) ?? '').slice(label.length).trim().split(/\s+/)[0] ?? ''
  const mcpUrl = field('MCP endpoint:')
  const statusUrl = field('Status page:')
  const token = field('Token:')
  t.match(mcpUrl, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/)
  t.ok(token.length >= 32, 'a generated token is printed')
  t.ok(demo.lines.some(line => line.includes('claude mcp add --transport http')), 'client configs are printed')

  const client = await connectClient(t, { url: mcpUrl.replace(/\/mcp$/, '') }, token)
  const areas = await callTool(client, 'ha_list_areas')
  t.ok(areas.json.total > 0, 'the printed URL and token answer tool calls')
  await client.close()
  t.ok(demo.lines.some(line => line.trim() === `npx -y mcp-remote ${mcpUrl}`), 'how to try the OAuth sign-in is printed')
  const metadataUrl = (demo.lines.find(line => line.includes('Metadata:')) ?? '').split('Metadata:')[1]?.trim() ?? ''
  t.equal((await (await fetch(metadataUrl)).json() as { resource: string }).resource, mcpUrl, 'and its metadata answers for that URL')
  const page = await fetch(statusUrl)
  t.equal(page.status, 200, 'the status page is served')
  const connect = await (await fetch(`${statusUrl}api/connect`, { headers: { host: `127.0.0.1:${new URL(statusUrl).port}` } })).json() as { url: string }
  t.equal(connect.url, mcpUrl, 'the Connect tab shows the port the demo listens on, not 9583')

  demo.child.kill('SIGTERM')
  t.equal(await demo.exit, 0, 'Ctrl+C / SIGTERM stops both cleanly')
})
