import { calendarCommands } from '../calendar.ts'
import { configCommands } from './config-commands.ts'
import { configEntryCommands } from './config-entries.ts'
import { coreCommands } from './core.ts'
import { helperCommands } from './helpers.ts'
import type { CommandTable } from './protocol.ts'
import { recorderCommands } from './recorder.ts'
import { registryCommands } from './registry.ts'
import { registryWriteCommands } from './registry-writes.ts'
import { templateCommands } from './render-template.ts'
import { streamCommands } from './streams.ts'
import { userCommands } from '../users.ts'

/** Every WebSocket command the demo home answers, by type. */
export const commands: CommandTable = {
  ...coreCommands,
  ...registryCommands,
  ...registryWriteCommands,
  ...recorderCommands,
  ...configCommands,
  ...configEntryCommands,
  ...calendarCommands,
  ...helperCommands,
  ...templateCommands,
  ...streamCommands,
  ...userCommands
}
