// A read that Home Assistant is slow to serve answers within the budget with a coded timeout, before
// Home Assistant's MCP client (10 s per call) would give up with nothing to show; writes are never cut.
import t from 'tap'
import { z } from 'zod'
import { ALL_LEVELS } from '../../src/auth/identity.ts'
import { realClock } from '../../src/clock.ts'
import { defineTool, type ToolContext, type ToolKind } from '../../src/mcp/runtime/define-tool.ts'
import { invokeTool, READ_BUDGET_MS } from '../../src/mcp/runtime/invoke.ts'
import { checkDefinition } from '../../src/mcp/runtime/registry.ts'
import { fakeClock, pastWait } from '../helper.ts'

const logged: string[] = []
const ctx = {
  home: { ready: async () => {}, scrub: (text: string) => text },
  identity: { id: 'primary', name: 'primary', levels: ALL_LEVELS },
  clock: realClock,
  log: { level: 'info', debug () {}, trace () {}, error () {}, warning (_o: unknown, message: string) { logged.push(message) } }
} as unknown as ToolContext

function slowTool (kind: ToolKind, finish: Promise<unknown>, onStart = (): void => {}): ReturnType<typeof checkDefinition> {
  return checkDefinition(defineTool({
    name: `slow_${kind}`,
    title: 'Slow',
    description: 'Waits for Home Assistant.',
    kind,
    category: 'system',
    everyday: false,
    keywords: { en: '', de: '', fr: '', es: '', nl: '' },
    input: z.object({}),
    handler: async () => { onStart(); return await finish }
  }), 'slow.ts')
}

t.test('the budget leaves room inside Home Assistant\'s 10 s for the session around the call', async t => {
  t.ok(READ_BUDGET_MS <= 8_000 && READ_BUDGET_MS >= 5_000)
})

t.test('a read over its budget answers with HAMCP_HA_TIMEOUT and a hint', async t => {
  const clock = fakeClock()
  const never = new Promise(() => {})
  const result = await pastWait(clock, 20, invokeTool(slowTool('read', never), {}, { ...ctx, clock }, undefined, 20))
  t.equal(result.isError, true)
  t.equal((result.structuredContent as { error: { code: string } }).error.code, 'HAMCP_HA_TIMEOUT')
  t.match((result.content[0] as { text: string }).text, /within 0\.02 s[\s\S]*Hint: Ask for less/)
  t.match(logged, ['tool call over its time budget; answered with a timeout'])
})

t.test('the budget runs on the call\'s clock, not the wall clock', async t => {
  const clock = fakeClock()
  const call = invokeTool(slowTool('read', new Promise(() => {})), {}, { ...ctx, clock }, undefined, READ_BUDGET_MS)
  await new Promise(resolve => setImmediate(resolve))
  t.same(clock.pending(), [READ_BUDGET_MS], 'the budget is a timer on the injected clock')
  clock.advance(READ_BUDGET_MS)
  const result = await call
  t.equal((result.structuredContent as { error: { code: string } }).error.code, 'HAMCP_HA_TIMEOUT', 'and answers when that clock passes it')
})

t.test('a read answered in time leaves no timer behind', async t => {
  const clock = fakeClock()
  const fromMemory = checkDefinition(defineTool({ name: 'memory_read', title: 'Memory', description: 'Reads memory.', kind: 'read', category: 'system', everyday: false, keywords: { en: '', de: '', fr: '', es: '', nl: '' }, input: z.object({}), handler: async () => ({ ok: true }) }), 'memory.ts')
  const result = await invokeTool(fromMemory, {}, { ...ctx, clock }, undefined, READ_BUDGET_MS)
  t.same(result.structuredContent, { ok: true })
  t.same(clock.pending(), [], 'its budget timer was cleared with the answer')
})

t.test('a late failure after the budget is not an unhandled rejection', async t => {
  let fail: (err: Error) => void = () => {}
  const late = new Promise((_resolve, reject) => { fail = reject })
  const clock = fakeClock()
  const result = await pastWait(clock, 5, invokeTool(slowTool('read', late), {}, { ...ctx, clock }, undefined, 5))
  t.equal(result.isError, true)
  fail(new Error('Home Assistant finally failed'))
  await new Promise(resolve => setImmediate(resolve))
  t.pass('no crash')
})

t.test('a read within its budget answers normally', async t => {
  const result = await invokeTool(slowTool('read', Promise.resolve({ ok: true })), {}, ctx, undefined, 1000)
  t.notOk(result.isError)
  t.same(result.structuredContent, { ok: true })
})

t.test('a write is never cut short: the change may be under way', async t => {
  let started = (): void => {}
  const handling = new Promise<void>(resolve => { started = resolve })
  let finish: (value: unknown) => void = () => {}
  const pending = new Promise(resolve => { finish = resolve })
  const clock = fakeClock()
  let answered = false
  const call = invokeTool(slowTool('write', pending, started), {}, { ...ctx, clock }, undefined, 1)
  call.then(() => { answered = true }, () => {})
  await handling
  clock.advance(1000)
  await new Promise(resolve => setImmediate(resolve))
  t.notOk(answered, 'still waiting for Home Assistant long past the budget')
  finish({ done: true })
  const result = await call
  t.notOk(result.isError)
  t.same(result.structuredContent, { done: true })
})
