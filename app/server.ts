import { startServer, stopOnSignals } from './start.ts'

/** Production entry (`npm start`, the add-on's run.sh): serves until SIGTERM/SIGINT, then shuts down gracefully. */
export async function main (env = process.env): Promise<void> {
  stopOnSignals(await startServer({ env }))
}

const entry = process.argv[1] ?? ''
if (/server\.(ts|js)$/.test(entry)) {
  main().catch((err: unknown) => {
    process.stderr.write(`fatal: ${(err as Error).stack ?? String(err)}\n`)
    process.exit(1)
  })
}
