import type { Client } from '@modelcontextprotocol/sdk/client/index.js'

/**
 * The owner editing the house from Home Assistant's own UI: one command over a separate WebSocket
 * connection to the demo home, so the add-on sees it only as Home Assistant's events.
 */
export async function ownerCommand (home: { url: string, token: string }, command: Record<string, unknown>): Promise<unknown> {
  const socket = new WebSocket(`${home.url.replace(/^http/, 'ws')}/api/websocket`)
  try {
    return await new Promise((resolve, reject) => {
      socket.addEventListener('error', () => { reject(new Error('owner WebSocket failed')) })
      socket.addEventListener('message', event => {
        const message = JSON.parse(String(event.data)) as { type: string, id?: number, success?: boolean, result?: unknown, error?: unknown }
        if (message.type === 'auth_required') socket.send(JSON.stringify({ type: 'auth', access_token: home.token }))
        else if (message.type === 'auth_ok') socket.send(JSON.stringify({ id: 1, ...command }))
        else if (message.type === 'auth_invalid') reject(new Error('owner auth refused'))
        else if (message.type === 'result' && message.id === 1) {
          if (message.success === true) resolve(message.result)
          else reject(new Error(`owner command refused: ${JSON.stringify(message.error)}`))
        }
      })
    })
  } finally {
    socket.close()
  }
}

/** A tool call's error code, text and machine-readable details. */
export async function call (client: Client, name: string, args: Record<string, unknown> = {}): Promise<{ isError: boolean, code?: string, text: string, json: any, details: any }> {
  const result = await client.callTool({ name, arguments: args })
  const text = (result.content as Array<{ type: string, text?: string }>).map(c => c.text ?? '').join('\n')
  const error = (result.structuredContent as { error?: { code?: string, details?: unknown } } | undefined)?.error
  let json: unknown
  try { json = JSON.parse(text) } catch { json = undefined }
  return { isError: result.isError === true, code: result.isError === true ? error?.code : undefined, text, json, details: error?.details }
}
