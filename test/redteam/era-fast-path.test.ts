// decideEra's fast path (src/mcp/stateless.ts: a plain request decided without the SDK's
// classification) must decide exactly what the SDK's rules decide: every body and header combination
// it calls 2025-era is one the SDK calls 2025-era, and the other way round.
import t from 'tap'
import { classifyInboundRequest } from '@modelcontextprotocol/server'
import { checkBody, decideEra } from '../../src/mcp/stateless.ts'
import { metaFor } from './_modern.ts'

t.test('the fast path decides what the SDK decides', async t => {
  const params = [undefined, {}, { name: 'ha_get_entity' }, { name: 'ha_get_entity', _meta: {} }, { _meta: metaFor() }, { _meta: { 'io.modelcontextprotocol/protocolVersion': '2025-06-18' } },
    JSON.parse('{"__proto__":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}'), { name: 'x', _meta: null }]
  const methods = ['tools/call', 'tools/list', 'initialize', 'server/discover', 'subscriptions/listen', 'notifications/initialized']
  const ids: unknown[] = [1, 'a', 0, -1, 1.5, null, undefined]
  const versions = [undefined, '2025-06-18', '2025-11-25', ' 2025-06-18', '2026-07-28', '2024-11-05', 'junk', '']
  const mcpMethods = [undefined, 'tools/call', 'other']
  let checked = 0
  for (const method of methods) {
    for (const p of params) {
      for (const id of ids) {
        const body: Record<string, unknown> = { jsonrpc: '2.0', method, ...(id === undefined ? {} : { id }), ...(p === undefined ? {} : { params: p }) }
        for (const body2 of [body, { ...body, jsonrpc: '1.0' }, { ...body, extra: 1 }]) {
          for (const protocolVersion of versions) {
            for (const mcpMethod of mcpMethods) {
              const ours = decideEra(body2, { protocolVersion, method: mcpMethod })
              const sdk = classifyInboundRequest({ httpMethod: 'POST', protocolVersionHeader: protocolVersion, mcpMethodHeader: mcpMethod, body: body2 })
              checked++
              if ((ours.era === 'legacy') !== (sdk.kind === 'legacy')) t.fail(`${JSON.stringify(body2)} ${protocolVersion} ${mcpMethod}: ours ${ours.era}, the SDK's ${sdk.kind}`)
            }
          }
        }
      }
    }
  }
  t.pass(`${checked} combinations agree`)
})

t.test('a body the plain checks accept is one the SDK\'s schemas accept', async t => {
  const { isJSONRPCNotification, isJSONRPCRequest, isJSONRPCResultResponse, isJSONRPCErrorResponse } = await import('@modelcontextprotocol/server')
  const sdkAccepts = (item: unknown): boolean => isJSONRPCRequest(item) || isJSONRPCNotification(item) || isJSONRPCResultResponse(item) || isJSONRPCErrorResponse(item)
  const paramsList: unknown[] = [undefined, {}, { requestId: 1 }, { _meta: {} }, null, [], 'x', 1, { a: { b: [1] } }]
  const methods: unknown[] = ['notifications/initialized', 'notifications/cancelled', '', 1, null, undefined]
  const extras: Array<Record<string, unknown>> = [{}, { extra: 1 }, { id: undefined }, { jsonrpc: '1.0' }, { jsonrpc: undefined }]
  let checked = 0
  for (const method of methods) {
    for (const p of paramsList) {
      for (const extra of extras) {
        const body: Record<string, unknown> = { jsonrpc: '2.0', ...(method === undefined ? {} : { method }), ...(p === undefined ? {} : { params: p }), ...extra }
        checked++
        if (checkBody(body).ok !== sdkAccepts(body)) t.fail(`${JSON.stringify(body)}: ours ${String(checkBody(body).ok)}, the SDK's ${String(sdkAccepts(body))}`)
      }
    }
  }
  t.pass(`${checked} bodies agree`)
})
