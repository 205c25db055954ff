/**
 * What a server process costs, read from Linux's /proc: its CPU time and its resident memory. Shared
 * by `npm run bench` and test/system/build.test.ts, so the two measure a call the same way.
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

/** The server's one command line (npm start's, the add-on's): the bench and test/system/build.test.ts run it too. */
export const START_SCRIPT = 'addon/start.sh'

/** The settings START_SCRIPT applies (its exports and node flags), as the bench prints them beside its figures. */
export function startSettings (script: string = START_SCRIPT): string[] {
  return readFileSync(script, 'utf8').split('\n').map(line => line.trim().replace(/ \\$/, '')).filter(line => /^(export [A-Z_]+=|--)/.test(line)).map(line => line.replace(/^export /, ''))
}
