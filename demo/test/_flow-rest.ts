// The demo home as the helper-flow tests speak to it: Home Assistant's config entry flow REST views
// (core config/config_entries.py), called with the demo's token.
import { startDemoHome } from '../index.ts'

export type Test = { teardown: (fn: () => unknown) => void }
export type Answer = { status: number, json: any }
export type Rest = (method: string, path: string, body?: unknown) => Promise<Answer>
export const FLOW = '/api/config/config_entries/flow'
export const OPTIONS = '/api/config/config_entries/options/flow'

/** A 300-entity demo home, closed after the test, and a REST caller for it. */
export async function demo (t: Test): Promise<{ home: Awaited<ReturnType<typeof startDemoHome>>, rest: Rest }> {
  const home = await startDemoHome({ entities: 300 })
  t.teardown(() => home.close())
  const rest: Rest = async (method, path, body) => {
    const answer = await fetch(`${home.url}${path}`, { method, headers: { authorization: `Bearer ${home.token}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
    return { status: answer.status, json: await answer.json() }
  }
  return { home, rest }
}
