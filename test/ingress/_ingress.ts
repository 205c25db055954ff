import type { FastifyInstance } from 'fastify'
import { buildIngressApp, ingressServicesOf } from '../../app/ingress-app.ts'
import { createLogger, SecretScrubber } from '../../src/logger.ts'
import { join } from 'node:path'
import { loadToolCatalog, type ToolCatalog } from '../../src/mcp/runtime/registry.ts'
import type { TestServer } from '../helper.ts'
import { TOOLS_DIR } from '../../app/tools-dir.ts'

let entitiesCatalog: Promise<ToolCatalog> | undefined
/** The finished entity tools only, so these tests do not depend on tool modules still being written. */
export async function testCatalog (): Promise<ToolCatalog> {
  entitiesCatalog ??= loadToolCatalog(join(TOOLS_DIR, 'entities'))
  return await entitiesCatalog
}

type Test = { teardown: (fn: () => unknown) => void }

/** The ingress app over a running test server's services, wired as app/start.ts does it. */
export async function startIngress (t: Test, server: TestServer, logs: string[] = [], catalog?: ToolCatalog): Promise<FastifyInstance> {
  const logger = createLogger({ level: 'info', scrubber: new SecretScrubber(), write: line => { logs.push(line) } })
  const ingress = await buildIngressApp({ services: { ...ingressServicesOf(server.app.services), catalog: catalog ?? await testCatalog() }, logger })
  t.teardown(() => ingress.close())
  return ingress
}
