// The official MCP conformance suite (@modelcontextprotocol/conformance, pinned in package.json) run
// against the product, for both protocol eras. It has no way to send a bearer token, so a loopback
// proxy adds ours. The baselines list only the scenarios that need the suite's own fixture tools;
// a new failure, or a listed scenario that starts passing, fails this test.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { startHome, startServer, TEST_TOKEN } from './../helper.ts'
import { tokenProxy } from './conformance/_token-proxy.ts'

const SUITE = join(import.meta.dirname, '../../node_modules/@modelcontextprotocol/conformance/dist/index.js')
const major = Number(process.versions.node.split('.')[0])

async function runSuite (url: string, requirements: string, outputDir: string): Promise<{ code: number | null, output: string }> {
  return await new Promise(resolve => {
    const child = spawn(process.execPath, [SUITE, 'server', '--url', url, '--requirements', requirements,
      '--expected-failures', join(import.meta.dirname, `conformance/baseline-${requirements}.yml`), '-o', outputDir], { stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', chunk => { output += String(chunk) })
    child.stderr.on('data', chunk => { output += String(chunk) })
    const timer = setTimeout(() => { child.kill('SIGKILL') }, 240_000)
    child.on('close', code => {
      clearTimeout(timer)
      resolve({ code, output })
    })
  })
}

t.test('the MCP conformance suite passes, but for the scenarios needing its fixture tools', { skip: major < 22 ? 'the suite needs Node >= 22 (npm scripts run Node 26)' : false, timeout: 600_000 }, async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true }, logLevel: 'warning' })
  const proxy = await tokenProxy(server.url, TEST_TOKEN)
  t.teardown(() => proxy.close())
  const outputDir = mkdtempSync(join(tmpdir(), 'ha-mcp-conformance-'))
  t.teardown(() => { rmSync(outputDir, { recursive: true, force: true }) })
  for (const requirements of ['2026-07-28', '2025-11-25']) {
    const { code, output } = await runSuite(`${proxy.url}/mcp`, requirements, join(outputDir, requirements))
    const summary = output.split('\n').filter(line => /Total:|Baseline|✗|unexpected|stale/i.test(line)).join('\n')
    t.equal(code, 0, `--requirements ${requirements}: only baselined failures\n${summary}`)
    t.match(output, /Total: \d+ passed/, `--requirements ${requirements} ran`)
  }
})
