// Two stateless endpoints over the same services: one that answers 2025-era read calls directly
// (src/mcp/handlers.ts directToolCall) and one that sends everything through the SDK, to compare.
import type { Test } from 'tap'
import type { McpServerDeps } from '../../src/mcp/handlers.ts'
import { createMcpEndpoint } from '../../src/mcp/stateless.ts'

export async function bothPaths (t: Test, deps: McpServerDeps): Promise<{ viaSdk: Awaited<ReturnType<typeof createMcpEndpoint>>, direct: Awaited<ReturnType<typeof createMcpEndpoint>> }> {
  const viaSdk = await createMcpEndpoint(deps, undefined, { directToolCalls: false })
  const direct = await createMcpEndpoint(deps)
  t.teardown(async () => { await viaSdk.close(); await direct.close() })
  return { viaSdk, direct }
}
