import { coreCommands } from './core.ts'
import type { CommandTable } from './protocol.ts'
import { registryCommands } from './registry.ts'

/** Every WebSocket command the demo home answers, by type. */
export const commands: CommandTable = {
  ...coreCommands,
  ...registryCommands
}
