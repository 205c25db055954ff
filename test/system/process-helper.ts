import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'

export const ROOT = join(import.meta.dirname, '../..')
const TSX = join(ROOT, 'node_modules/.bin/tsx')

export interface Running { child: ChildProcess, lines: string[], exit: Promise<number | null> }

/**
 * The server as a real process with only the variables given here: `tsx app/server.ts` by default,
 * or another command line (the production build: `node dist/app/server.js`), run in `cwd` (the repository).
 */
export function startProcess (t: { teardown: (fn: () => unknown) => void }, env: Record<string, string>, command: string[] = [TSX, 'app/server.ts'], cwd: string = ROOT): Running {
  const [program, ...args] = command as [string, ...string[]]
  const child = spawn(program, args, {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', HOST: '127.0.0.1', MCP_PORT: '0', INGRESS_PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  const lines: string[] = []
  let partial = ''
  const collect = (chunk: Buffer): void => {
    partial += chunk.toString('utf8')
    const parts = partial.split('\n')
    partial = parts.pop() ?? ''
    lines.push(...parts)
  }
  child.stdout?.on('data', collect)
  child.stderr?.on('data', collect)
  const exit = new Promise<number | null>(resolve => child.once('exit', code => resolve(code)))
  t.teardown(() => { if (child.exitCode === null) child.kill('SIGKILL') })
  return { child, lines, exit }
}

/** The port a `... listening` log line reports. */
export function portFrom (lines: string[], message: string): number {
  const line = lines.find(l => l.includes(message)) ?? ''
  return Number(/"port":(\d+)/.exec(line)?.[1] ?? 0)
}
