import { z } from 'zod'
import { UserError } from '../../src/errors.ts'

/** A resolved time window; `hours` is its width. */
export interface TimeWindow {
  start: Date
  end: Date
  hours: number
}

export interface WindowLimits {
  minHours: number
  maxHours: number
  defaultHours: number
}

export interface WindowArgs {
  hours?: number | undefined
  start?: string | undefined
  end?: string | undefined
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/

/** The three window fields every time-based tool takes, described the same way. */
export function windowShape (limits: WindowLimits) {
  return {
    hours: z.number().min(limits.minHours).max(limits.maxHours).optional().describe(`Hours back (default ${limits.defaultHours}).`),
    start: z.string().trim().optional().describe('ISO start, instead of hours.'),
    end: z.string().trim().optional().describe('ISO end (default now).')
  }
}

/** An ISO 8601 instant, or a UserError naming the field. */
export function parseInstant (value: string, field: string): Date {
  const time = value.length <= 40 && ISO_DATE.test(value) ? Date.parse(value) : Number.NaN
  if (Number.isNaN(time)) {
    throw new UserError('HAMCP_INVALID_ARGUMENT', `${field} "${value}" is not a valid ISO 8601 date.`, 'Use a form like 2026-05-01T08:00:00Z or 2026-05-01T10:00:00+02:00.')
  }
  return new Date(time)
}

function formatHours (hours: number): string {
  return Number.isInteger(hours) ? `${hours}` : hours.toFixed(2)
}

/**
 * Turns hours or start/end into a concrete window, with an explicit error for every way a window can
 * be wrong: unreadable dates, empty or inverted windows, windows in the future, windows too wide.
 */
export function resolveWindow (args: WindowArgs, limits: WindowLimits, now: number): TimeWindow {
  if (args.hours !== undefined && args.start !== undefined && args.end !== undefined) {
    throw new UserError('HAMCP_INVALID_ARGUMENT', 'Give either hours, or start and end, not all three.', 'Drop hours to use an explicit start/end window.')
  }
  const width = (args.hours ?? limits.defaultHours) * 3_600_000
  let start: Date
  let end: Date
  if (args.start !== undefined) {
    start = parseInstant(args.start, 'start')
    end = args.end !== undefined ? parseInstant(args.end, 'end') : new Date(Math.min(now, start.getTime() + (args.hours !== undefined ? width : Number.POSITIVE_INFINITY)))
  } else {
    end = args.end !== undefined ? parseInstant(args.end, 'end') : new Date(now)
    start = new Date(end.getTime() - width)
  }
  if (start.getTime() > now) {
    throw new UserError('HAMCP_INVALID_ARGUMENT', `The window starts in the future (${start.toISOString()}).`, 'Use a start in the past; Home Assistant only records what happened.')
  }
  if (end.getTime() <= start.getTime()) {
    throw new UserError('HAMCP_INVALID_ARGUMENT', `The window is empty or inverted (start ${start.toISOString()}, end ${end.toISOString()}).`, 'end must be after start.')
  }
  const hours = (end.getTime() - start.getTime()) / 3_600_000
  if (hours > limits.maxHours + 1e-9) {
    throw new UserError('HAMCP_INVALID_ARGUMENT', `The window is ${formatHours(hours)} hours wide; at most ${limits.maxHours} hours are allowed here.`, 'Narrow start/end, or use ha_get_statistics for long periods.')
  }
  if (hours < limits.minHours - 1e-9) {
    throw new UserError('HAMCP_INVALID_ARGUMENT', `The window is ${formatHours(hours)} hours wide; it must be at least ${limits.minHours} hours.`, 'Widen start/end.')
  }
  return { start, end, hours }
}

/** Seconds-precision ISO time: enough for people, shorter for the model's context. */
export function isoSeconds (time: Date | number): string {
  const date = typeof time === 'number' ? new Date(time) : time
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z')
}

/** HA sends epoch seconds (floats) in some payloads and ISO strings in others. */
export function toMillis (value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value > 1e11 ? value : value * 1000
  if (typeof value === 'string') {
    const parsed = Date.parse(value)
    return Number.isNaN(parsed) ? undefined : parsed
  }
  return undefined
}
