// docs/architecture.md lists every route both Fastify instances serve, and nothing they do not:
// this test reads the routes each instance registered (Fastify's own route table) and the doc's table.
import { readFileSync } from 'node:fs'
import t from 'tap'
import { startHome, startServer } from '../helper.ts'
import { startIngress } from '../ingress/_ingress.ts'

/**
 * `METHOD path` for each route in Fastify's printRoutes() tree (a child line's path continues its
 * parent's); HEAD and OPTIONS are the framework's own (HEAD beside each GET, CORS preflights).
 */
export function routesOf (printed: string): string[] {
  const stack: string[] = []
  const routes: string[] = []
  for (const line of printed.split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+)(?: \(([^)]+)\))?$/.exec(line)
    if (!match) continue
    const depth = (match[1] as string).length / 4
    stack.length = depth
    stack.push(match[2] as string)
    const path = stack.join('')
    for (const method of match[3]?.split(', ') ?? []) {
      if (method !== 'HEAD' && method !== 'OPTIONS') routes.push(`${method} ${path.startsWith('/') ? path : `/${path}`}`)
    }
  }
  return routes.sort()
}

t.test('the route reader reads Fastify\'s tree', async t => {
  t.same(routesOf('├── /mcp (GET, HEAD, DELETE)\n├── /api/tokens (GET, POST)\n│   └── /:id (DELETE)\n└── * (HEAD, GET, OPTIONS)\n'),
    ['DELETE /api/tokens/:id', 'DELETE /mcp', 'GET /*', 'GET /api/tokens', 'GET /mcp', 'POST /api/tokens'])
})

t.test('docs/architecture.md lists every route of both instances', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { confirm_with: 'owner' } })
  const ingress = await startIngress(t, server)
  const doc = readFileSync(new URL('../../docs/architecture.md', import.meta.url), 'utf8')
  const section = doc.slice(doc.indexOf('## Every route'))
  const listed = (instance: string): string[] => [...section.matchAll(/^\| (MCP|ingress) \| `([A-Z]+) ([^`]+)` \|/gm)]
    .filter(([, where]) => where === instance).map(([, , method, path]) => `${method as string} ${path as string}`).sort()
  t.same(listed('MCP'), routesOf(server.app.printRoutes({ commonPrefix: false })), 'the MCP port')
  t.same(listed('ingress'), routesOf(ingress.printRoutes({ commonPrefix: false })), 'the ingress port')
})
