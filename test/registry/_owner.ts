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
