import { request } from 'node:http'

export interface HostAnswer {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
  json: any
}

/**
 * HTTP as a client on another machine sees it: the URL keeps its host name (the add-on's internal
 * hostname, the LAN address), sent as the Host header, while the connection goes to the test server
 * on loopback, as Docker's port mapping and the internal DNS would route it.
 */
export function hostFetch (port: number): (url: string, init?: { method?: string, headers?: Record<string, string>, body?: string }) => Promise<HostAnswer> {
  return async (url, init = {}) => {
    const target = new URL(url)
    return await new Promise((resolve, reject) => {
      const outgoing = request({
        host: '127.0.0.1',
        port,
        method: init.method ?? 'GET',
        path: `${target.pathname}${target.search}`,
        headers: { host: target.host, ...init.headers, ...(init.body !== undefined ? { 'content-length': String(Buffer.byteLength(init.body)) } : {}) }
      }, answer => {
        const chunks: Buffer[] = []
        answer.on('data', (chunk: Buffer) => chunks.push(chunk))
        answer.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          let json: unknown
          try { json = JSON.parse(text) } catch { json = undefined }
          resolve({ status: answer.statusCode ?? 0, headers: answer.headers, text, json })
        })
      })
      outgoing.on('error', reject)
      if (init.body !== undefined) outgoing.write(init.body)
      outgoing.end()
    })
  }
}

export function form (fields: Record<string, string | string[]>): string {
  const body = new URLSearchParams()
  for (const [key, value] of Object.entries(fields)) for (const v of Array.isArray(value) ? value : [value]) body.append(key, v)
  return body.toString()
}
