import { rpc } from '../helper.ts'

/** Raw session helpers: what a client without the SDK sends and reads. */
export const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw-client', version: '1.0.0' } }
}

export function auth (token: string, session?: string): Record<string, string> {
  return { authorization: `Bearer ${token}`, ...(session ? { 'mcp-session-id': session } : {}) }
}

/** The JSON-RPC answer in a response body, whether sent as JSON or as one SSE message. */
export function answerOf (body: string): any {
  const data = body.split('\n').find(line => line.startsWith('data: '))
  return JSON.parse(data ? data.slice(6) : body)
}

/** Opens a session with a raw initialize; returns its id. */
export async function openRawSession (url: string, token: string): Promise<string> {
  const response = await rpc(url, INITIALIZE, auth(token))
  await response.text()
  const id = response.headers.get('mcp-session-id')
  if (response.status !== 200 || !id) throw new Error(`initialize answered ${response.status} without a session id`)
  return id
}

export async function listTools (url: string, token: string, session?: string): Promise<Response> {
  return await rpc(url, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, auth(token, session))
}

export async function sendRaw (url: string, method: 'GET' | 'DELETE', token: string, session?: string, signal?: AbortSignal): Promise<Response> {
  return await fetch(`${url}/mcp`, { method, headers: { accept: 'text/event-stream', ...auth(token, session) }, signal })
}
