import { createRequire } from 'node:module'
const require = createRequire(import.meta.url)
// In-process: demo home + app, sequential inject calls; node flags via command line.
import { buildApp } from '/work/wt/lead/app/app.ts'
import { loadConfig } from '/work/wt/lead/src/config.ts'
import { createLogger, SecretScrubber } from '/work/wt/lead/src/logger.ts'
import * as z from 'zod'
import { specTypeSchemas } from '@modelcontextprotocol/server'
import { ct as codecForVersion } from '/work/wt/lead/node_modules/@modelcontextprotocol/server/dist/src-DdvbAHrR.mjs'
import { startDemoHome } from '/work/wt/lead/demo/index.ts'
import { createMcpEndpoint } from '/work/wt/lead/src/mcp/transport/stateless.ts'
import { invokeTool, jsonResult } from '/work/wt/lead/src/mcp/runtime/invoke.ts'
import { parseArguments } from '/work/wt/lead/src/mcp/runtime/arguments.ts'
import { PRIMARY_IDENTITY } from '/work/wt/lead/src/auth/identity.ts'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
const TOKEN = 'bench-token-0123456789abcdef0123'
const home = await startDemoHome({ entities: 10000, token: 'bench-ha-token' })
const dir = mkdtempSync(join(tmpdir(), 'h-'))
writeFileSync(join(dir, 'options.json'), JSON.stringify({ tool_list: 'full' }))
const config = loadConfig({ HA_URL: home.url, HA_TOKEN: home.token, DATA_DIR: dir, LOG_LEVEL: 'warning', RATE_LIMIT_PER_TOKEN: '0', RATE_LIMIT_PER_ADDRESS: '0' })
const app = await buildApp({ config, primaryToken: TOKEN, logger: createLogger({ level: 'warning', scrubber: new SecretScrubber(), write: () => {} }) })
await app.ready()
await app.services.ha.whenReady(20000)
const mode = process.argv[2] ?? 'inject'
if (process.env.SKIPV) (globalThis as any).SKIPV = true
if (process.env.KEEPORIG) (globalThis as any).KEEPORIG = true
if (process.env.VCOPY) (globalThis as any).VCOPY = true
const ids: string[] = app.services.mcp.context(PRIMARY_IDENTITY).home.catalog.all().map((r: any) => r.entity_id)
const TOOL = process.env.TOOL ?? 'list'
const argsFor = (i: number): any => TOOL === 'search'
  ? { query: i % 10 === 0 ? ['kitchen light', 'temperature', 'étage', 'door', 'motion'][(i / 10) % 5] : (ids[(i * 7919) % ids.length] ?? '').split('.')[1]?.split('_').slice(0, 2).join(' '), limit: 20 }
  : TOOL === 'get' ? { entity_id: ids[(i * 7919) % ids.length] } : { domain: ['light', 'sensor', 'switch', 'binary_sensor'][i % 4], limit: 50 }
const TOOLNAME = TOOL === 'search' ? 'ha_search_entities' : TOOL === 'get' ? 'ha_get_entity' : 'ha_list_entities'
const body = (i: number) => JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: TOOLNAME, arguments: argsFor(i) } })
const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${TOKEN}` }
const N = Number(process.argv[3] ?? 6000)
const REC = z.record(z.string(), z.unknown())
const ARR = z.array(z.object({ type: z.literal('text'), text: z.string() }))
import { Session } from 'node:inspector/promises'
const session = new Session()
if (process.env.SAMPLE) { session.connect(); await session.post('HeapProfiler.enable'); await session.post('HeapProfiler.startSampling', { samplingInterval: 128, includeObjectsCollectedByMinorGC: process.env.SAMPLE === 'all', includeObjectsCollectedByMajorGC: true }) }
if (process.env.CPUPROF) { session.connect(); await session.post('Profiler.enable'); await session.post('Profiler.setSamplingInterval', { interval: 100 }); await session.post('Profiler.start') }
console.error('MARK start')
const t0 = performance.now()
const endpoint = await createMcpEndpoint(app.services.mcp)
const http = await import('node:http')
let port = 0
if (mode === 'http') { await app.listen({ port: 0, host: '127.0.0.1' }); port = (app.server.address() as any).port }
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
const post = (payload: string): Promise<number> => new Promise((resolve, reject) => {
  const req = http.request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(payload) } }, res => { res.resume(); res.on('end', () => { resolve(res.statusCode ?? 0) }) })
  req.on('error', reject); req.end(payload)
})
const signal = new AbortController().signal
const tools = app.services.mcp
for (let i = 0; i < N; i++) {
  if (mode === 'http') {
    const code = await post(body(i))
    if (code !== 200) throw new Error('http ' + code)
  } else if (mode === 'inject') {
    const r = await app.inject({ method: 'POST', url: '/mcp', headers, payload: body(i) })
    if (r.statusCode !== 200) throw new Error(r.body)
  } else if (mode === 'invoke') {
    const tt = performance.now()
    const msg = JSON.parse(body(i))
    const tool = tools.catalog.find(TOOLNAME, tools.options, PRIMARY_IDENTITY)!
    const r = await invokeTool(tool, msg.params.arguments, tools.context(PRIMARY_IDENTITY, signal), tools.onCall)
    if (r.isError) throw new Error(JSON.stringify(r))
    ;((globalThis as any).TIMES ??= []).push([performance.now() - tt, JSON.stringify(msg.params.arguments), r.content[0].text.length])
  } else if (mode.startsWith('invoke-z')) {
    const msg = JSON.parse(body(i))
    const tool = tools.catalog.find(TOOLNAME, tools.options, PRIMARY_IDENTITY)!
    const r = await invokeTool(tool, msg.params.arguments, tools.context(PRIMARY_IDENTITY, signal), tools.onCall)
    if (r.isError) throw new Error(JSON.stringify(r))
    if (mode === 'invoke-zcodec') { const v = codecForVersion(undefined).validateResult('tools/call', r); if (!v.ok) throw new Error('c'); continue }
    const S = mode === 'invoke-zrec' ? REC : mode === 'invoke-zarr' ? ARR : (specTypeSchemas as any).CallToolResult
    const input = mode === 'invoke-zrec' ? r.structuredContent : mode === 'invoke-zarr' ? r.content : r
    const p = S.safeParse(input)
    if (!p.success) throw new Error('z')
  } else if (mode === 'invoke-nobudget') {
    const msg = JSON.parse(body(i))
    const tool = tools.catalog.find(TOOLNAME, tools.options, PRIMARY_IDENTITY)!
    const r = await invokeTool(tool, msg.params.arguments, tools.context(PRIMARY_IDENTITY, signal), tools.onCall, Infinity)
    if (r.isError) throw new Error(JSON.stringify(r))
  } else if (mode.startsWith('handler')) {
    const msg = JSON.parse(body(i))
    const tool = tools.catalog.find(TOOLNAME, tools.options, PRIMARY_IDENTITY)!
    const { parsed } = parseArguments(tool.definition.input, msg.params.arguments)
    const ctx = tools.context(PRIMARY_IDENTITY, signal)
    if (mode.includes('ready')) await ctx.home.ready()
    const r = await tool.definition.handler({ ...ctx, tool: 'ha_list_entities' } as never, (parsed as any).data)
    if (!r) throw new Error('x')
    if (mode.includes('json')) { const j = jsonResult(r, ctx); if (j.isError) throw new Error('y') }
  } else if (mode === 'endpoint') {
    const answers = await endpoint.handle([JSON.parse(body(i))], PRIMARY_IDENTITY, new AbortController().signal, 'legacy')
    if (!('result' in answers[0])) throw new Error(JSON.stringify(answers[0]))
  }
}
{ const T = (globalThis as any).TIMES; if (T) { T.sort((a: any, b: any) => b[0] - a[0]); console.log('p50', T[T.length >> 1][0].toFixed(2), 'p99', T[Math.floor(T.length / 100)][0].toFixed(2)); for (const t of T.slice(0, 12)) console.log(t[0].toFixed(2), t[1], t[2]) } }
console.error('MARK end', N, 'calls', ((performance.now() - t0) / N).toFixed(3), 'ms/call')
if (process.env.CPUPROF) {
  const { profile } = await session.post('Profiler.stop') as any
  const self = new Map<string, number>(); const total = new Map<string, number>()
  const byId = new Map<number, any>(profile.nodes.map((n: any) => [n.id, n]))
  const parent = new Map<number, number>()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const counts = new Map<number, number>()
  for (const s of profile.samples) counts.set(s, (counts.get(s) ?? 0) + 1)
  const name = (n: any) => `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber + 1}`
  let all = 0
  for (const [id, c] of counts) {
    all += c
    const n = byId.get(id); self.set(name(n), (self.get(name(n)) ?? 0) + c)
    const seen = new Set<string>()
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) { const nm = name(byId.get(cur)); if (!seen.has(nm)) { seen.add(nm); total.set(nm, (total.get(nm) ?? 0) + c) } }
  }
  console.log('samples', all)
  const want = process.env.CALLERS
  if (want) {
    const stacks = new Map<string, number>()
    for (const [id, c] of counts) {
      const chain: string[] = []
      for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) chain.push(name(byId.get(cur)))
      const at = chain.findIndex(x => x.startsWith(want))
      if (at < 0) continue
      const key = chain.slice(at, at + 8).join(' <- ')
      stacks.set(key, (stacks.get(key) ?? 0) + c)
    }
    for (const [k, v] of [...stacks].sort((a, b) => b[1] - a[1]).slice(0, 8)) console.log((100 * v / all).toFixed(2) + '%', k)
  }
  if (process.env.DUMP) require('node:fs').writeFileSync(process.env.DUMP, JSON.stringify({ all, self: [...self], N }));
  console.log('--- self'); for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log((100 * v / all).toFixed(1).padStart(5) + '%', k)
  console.log('--- total'); for (const [k, v] of [...total].sort((a, b) => b[1] - a[1]).slice(0, 45)) console.log((100 * v / all).toFixed(1).padStart(5) + '%', k)
}
if (process.env.SAMPLE) {
  const { profile } = await session.post('HeapProfiler.stopSampling') as any
  const byStack = new Map<string, number>(); let total = 0
  const walk = (node: any, stack: string[]): void => {
    const f = node.callFrame
    const name = `${f.functionName || '(anon)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`
    const st = [name, ...stack]
    if (node.selfSize) { total += node.selfSize; const key = process.env.GROUP ? (st.find(x => !/ core\/| classic\/|zod|\(anon\) :|^then :|^\(V8 API\)|^next :/.test(x)) ?? st[0]) : st.slice(0, Number(process.env.DEPTH ?? 5)).join(' <- '); byStack.set(key, (byStack.get(key) ?? 0) + node.selfSize) }
    for (const c of node.children) walk(c, st)
  }
  walk(profile.head, [])
  console.log('total KB/call', (total / 1024 / N).toFixed(2))
  for (const [k, v] of [...byStack].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log((v / 1024 / N).toFixed(2).padStart(7), 'KB/call', k)
}
await app.close(); await home.close()
