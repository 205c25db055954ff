// `npm run demo:ha`: prints where to connect and which token, serves requests, exits cleanly on SIGTERM/SIGINT.
import t from 'tap'
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../', import.meta.url))

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  t.test(`standalone demo home stops cleanly on ${signal}`, async t => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'demo/standalone.ts', '--port', '0', '--entities', '300', '--seed', '2', ...(signal === 'SIGINT' ? ['--token', 'T0k'] : [])], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
    t.teardown(() => { if (child.exitCode === null) child.kill('SIGKILL') })
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => { out += chunk.toString() })
    const exited = new Promise<number | null>(resolve => child.on('exit', code => resolve(code)))
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL printed: ${out}`)), 20_000)
      child.stdout.on('data', () => {
        const match = /URL:\s+(http:\/\/\S+)/.exec(out)
        if (match !== null && /Ctrl\+C/.test(out)) { clearTimeout(timer); resolve(match[1] as string) }
      })
    })
    const token = signal === 'SIGINT' ? 'T0k' : 'demo-token'
    t.match(out, new RegExp(`Token:\\s+${token}`), 'prints the accepted token')
    if (signal === 'SIGTERM') t.match(out, /default; pass --token/, 'says the default token is a default')
    t.match(out, /Supervisor URL:\s+http:\/\//)
    const res = await fetch(`${url}/api/states/sun.sun`, { headers: { authorization: `Bearer ${token}` } })
    t.equal(res.status, 200)
    child.kill(signal)
    t.equal(await exited, 0, 'exit code 0')
  })
}
