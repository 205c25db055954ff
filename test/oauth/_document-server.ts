import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import type { ServerResponse } from 'node:http'
import { createServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { publicAddress } from '../../src/hosts.ts'
import { ClientDocumentError } from '../../src/oauth/client-documents.ts'

type Test = { teardown: (fn: () => unknown) => void }

/** The host name the test documents are served under; the injected resolver maps it to 127.0.0.1. */
export const DOCUMENT_HOST = 'client.test'

/** A self-signed certificate for client.test and 127.0.0.1, made fresh by openssl for this run. */
export function selfSignedCertificate (): { key: string, cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'ha-mcp-tls-'))
  try {
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '1',
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
      '-subj', `/CN=${DOCUMENT_HOST}`, '-addext', `subjectAltName=DNS:${DOCUMENT_HOST},IP:127.0.0.1`
    ], { stdio: 'ignore' })
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

export type Route = (res: ServerResponse, url: string) => void

export interface DocumentServer {
  port: number
  cert: string
  /** `https://client.test:<port><path>`: a client_id served here. */
  url: (path: string) => string
  /** Requests seen, by path. */
  hits: string[]
  route: (path: string, handler: Route) => void
  /** Serves `document` as JSON (with the given headers) at `path`. */
  json: (path: string, document: unknown, headers?: Record<string, string>) => void
}

/** An https server on loopback that plays a client's web site serving its metadata document. */
export async function startDocumentServer (t: Test): Promise<DocumentServer> {
  const { key, cert } = selfSignedCertificate()
  const routes = new Map<string, Route>()
  const hits: string[] = []
  const server = createServer({ key, cert }, (req, res) => {
    const path = (req.url ?? '/').split('?')[0] as string
    hits.push(path)
    const route = routes.get(path)
    if (!route) { res.writeHead(404).end(); return }
    route(res, req.url ?? '/')
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>(resolve => { server.closeAllConnections(); server.close(() => resolve()) }))
  const port = (server.address() as AddressInfo).port
  return {
    port,
    cert,
    hits,
    url: path => `https://${DOCUMENT_HOST}:${port}${path}`,
    route: (path, handler) => { routes.set(path, handler) },
    json: (path, document, headers = {}) => {
      routes.set(path, res => {
        const body = JSON.stringify(document)
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers }).end(body)
      })
    }
  }
}

/** The test's view of the network: client.test is the document server on loopback, which it allows. */
export function documentNetwork (server: DocumentServer, extra: Record<string, string[]> = {}): { resolve: (host: string) => Promise<string[]>, addressAllowed: (address: string) => boolean, ca: string, resolved: string[] } {
  const resolved: string[] = []
  return {
    resolved,
    resolve: async host => {
      resolved.push(host)
      if (host === DOCUMENT_HOST) return ['127.0.0.1']
      const answer = extra[host]
      if (answer) return answer
      throw Object.assign(new Error(`${host} not found`), { code: 'ENOTFOUND' })
    },
    // Only the test server's own address is let through; every other special-use address stays refused.
    addressAllowed: address => address === '127.0.0.1' || publicAddress(address),
    ca: server.cert
  }
}

/** The reason a document was refused (ClientDocumentError.reason), or 'accepted'. */
export async function refusal (promise: Promise<unknown>): Promise<string> {
  try {
    await promise
  } catch (err) {
    if (err instanceof ClientDocumentError) return err.reason
    throw err
  }
  return 'accepted'
}
