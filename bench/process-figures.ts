/**
 * What a server process costs, read from Linux's /proc: its CPU time and its resident memory. Shared
 * by `npm run bench` and test/server/build.test.ts, so the two measure a call the same way.
 */
import { readFileSync, writeFileSync } from 'node:fs'

/** CPU time (user + system) the process has used so far, in ms (clock ticks of 10 ms); 0 once it is gone. */
export function cpuMs (pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return 0
  }
}

/** VmHWM (peak resident since start or the last reset) or VmRSS (resident now) of a process, in MB; 0 once it is gone. */
export function memoryMb (pid: number, field: 'VmHWM' | 'VmRSS' = 'VmHWM'): number {
  try {
    const value = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return Number(value?.[1] ?? 0) / 1024
  } catch {
    return 0
  }
}

/** Sets the process's peak-RSS mark (VmHWM) back to its current RSS (Linux clear_refs), so the next peak is one call's. */
export function resetPeak (pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5')
    return true
  } catch {
    return false
  }
}

/**
 * `npm start`'s command line, split: the environment assignments before `node` (glibc's allocator
 * setting), then node's own arguments. The bench and the build test start the server with exactly these.
 */
export function startCommand (packageJson: string = 'package.json'): { env: Record<string, string>, program: string, args: string[] } {
  const words = (JSON.parse(readFileSync(packageJson, 'utf8')) as { scripts: { start: string } }).scripts.start.split(' ')
  const env: Record<string, string> = {}
  while (/^[A-Z_]+=/.test(words[0] ?? '')) {
    const [name, ...value] = (words.shift() as string).split('=')
    env[name as string] = value.join('=')
  }
  const [program, ...args] = words
  return { env, program: program ?? '', args }
}
