import type { IncomingMessage, ServerResponse } from 'node:http'

export const MAX_BODY = 4 * 1024 * 1024

export async function readBody (req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    size += (chunk as Buffer).length
    if (size > MAX_BODY) throw new Error('body too large')
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks).toString('utf8')
}

export function sendJson (res: ServerResponse, status: number, body: unknown, raw = false): void {
  const text = raw ? String(body) : JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
  res.end(text)
}

export function sendText (res: ServerResponse, status: number, text: string, type = 'text/plain; charset=utf-8'): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(text) })
  res.end(text)
}

export function bearer (req: IncomingMessage): string | undefined {
  const header = req.headers.authorization
  if (typeof header === 'string' && header.startsWith('Bearer ')) return header.slice(7)
  return undefined
}

/** A parsed JSON body, or undefined when the body is empty; throws SyntaxError on invalid JSON. */
export async function jsonBody (req: IncomingMessage): Promise<unknown> {
  const text = await readBody(req)
  return text.trim() === '' ? undefined : JSON.parse(text) as unknown
}
