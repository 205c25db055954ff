import { z } from 'zod'

/** Argument schemas shared by the automation and script config tools, described once. */
const block = z.record(z.string(), z.unknown())

export const aliasArg = () => z.string().trim().min(1).max(200).describe('Name shown in Home Assistant.')

export const descriptionArg = () => z.string().max(2000).describe('Free-text description.')

export const modeArg = () =>
  z.enum(['single', 'restart', 'queued', 'parallel']).describe('What a new run does while one is active (default single).')

export const blocksArg = (what: string) => z.array(block).max(100).describe(`${what}, in Home Assistant's YAML schema as JSON.`)

export const variablesArg = () => block.describe('Variables available to templates.')

export const maxExceededArg = () =>
  z.enum(['silent', 'critical', 'fatal', 'error', 'warning', 'warn', 'info', 'debug', 'notset']).describe('Log level when max runs is exceeded.')

export const traceArg = () =>
  z.object({ stored_traces: z.number().int().min(1).max(100).describe('Traces kept (1-100).') }).describe('Trace settings.')

export const blueprintInputsArg = () => block.describe('Blueprint inputs by name (blueprint-based configs only).')
