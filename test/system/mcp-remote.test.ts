import { spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { createRequire } from 'node:module'
import t from 'tap'
import { startHome, startServer, tempDataDir } from '../helper.ts'
import { launchChromium } from './_browser.ts'

async function freePort (): Promise<number> {
  const probe = createServer()
  await new Promise<void>(resolve => probe.listen(0, '127.0.0.1', resolve))
  const port = (probe.address() as { port: number }).port
  await new Promise(resolve => probe.close(resolve))
  return port
}

const proxyScript = createRequire(import.meta.url).resolve('mcp-remote/dist/proxy.js')

t.test('mcp-remote signs in with its own OAuth flow (browser step in Chromium) and reaches the tools', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home })
  const configDir = tempDataDir(t)
  const callbackPort = await freePort()
  const started = performance.now()
  const child = spawn(process.execPath, [proxyScript, `${server.url}/mcp`, String(callbackPort), '--transport', 'http-only'], {
    env: { ...process.env, MCP_REMOTE_CONFIG_DIR: configDir, BROWSER: 'none', DISPLAY: '' },
    stdio: ['pipe', 'pipe', 'pipe']
  })
  t.teardown(() => { child.kill() })
  let stderr = ''
  let stdout = ''
  const authorizeUrl = new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
      const found = /Please authorize this client by visiting:\s+(\S+)/.exec(stderr)
      if (found) resolve(found[1] as string)
    })
    child.once('exit', code => { reject(new Error(`mcp-remote exited (${code}) before asking for a sign-in:\n${stderr}`)) })
  })
  const answers: Array<{ id?: number, result?: any, error?: any }> = []
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString()
    const lines = stdout.split('\n')
    stdout = lines.pop() ?? ''
    for (const line of lines) if (line.trim()) answers.push(JSON.parse(line))
  })
  const send = (message: unknown): void => { child.stdin.write(`${JSON.stringify(message)}\n`) }
  const answerTo = async (id: number): Promise<{ result?: any, error?: any }> => {
    const deadline = Date.now() + 30_000
    while (Date.now() < deadline) {
      const found = answers.find(a => a.id === id)
      if (found) return found
      await new Promise(resolve => setTimeout(resolve, 25))
    }
    throw new Error(`no answer to ${id}; stderr:\n${stderr.slice(-2000)}`)
  }

  const url = new URL(await authorizeUrl)
  t.equal(url.origin + url.pathname, `${server.url}/oauth/authorize`)
  t.equal(url.searchParams.get('code_challenge_method'), 'S256')

  const browser = await launchChromium(t)
  const page = await browser.newPage()
  await page.goto(url.href)
  t.match(await page.getByTestId('client-name').textContent(), /MCP/i, 'mcp-remote registered itself by name')
  await page.getByTestId('api-token').fill(server.token)
  await page.getByRole('button', { name: 'Allow' }).click()
  await page.waitForURL(/oauth\/callback/)

  send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'stdio-app', version: '1' } } })
  const init = await answerTo(1)
  t.ok(init.result?.capabilities?.tools, 'initialize through the proxy')
  send({ jsonrpc: '2.0', method: 'notifications/initialized' })
  send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} })
  const listed = await answerTo(2)
  t.ok(listed.result?.tools?.some((tool: { name: string }) => tool.name === 'ha_search_entities'), 'the tools, through mcp-remote')
  send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'ha_list_areas', arguments: {} } })
  const called = await answerTo(3)
  t.notOk(called.result?.isError, 'a tool call through mcp-remote')
  t.match(server.app.services?.oauth.grants(), [{ approved_by: 'primary token' }])
  t.comment(`mcp-remote figures: ${Math.round(performance.now() - started)} ms from start to the first tool answer, the browser step included`)
})
