/**
 * Reading a long time window from Home Assistant in pieces it answers small.
 *
 * Home Assistant's recorder reads (`logbook/get_events`, `history/history_during_period`) take a time
 * window and entity ids but no row limit: one week of a whole home's logbook is one answer of
 * megabytes, which arrives as one WebSocket frame and is parsed whole. Asking for consecutive windows
 * instead, each sized from the density of the one before to hold about `targetRows` rows, bounds what
 * one call holds at once to about one piece, whatever the window and the home. The walk stops as soon
 * as the caller has what it needs (`consume` returns true), at the deadline, or at the window's end,
 * and says how far it got, so the answer can say what was left out.
 */
import { realClock } from '../clock.ts'

export interface PieceWalkOptions {
  /** Rows a piece should hold; the next piece's width is scaled to it from the last one's density. */
  targetRows: number
  /** Width of the first piece, in ms (small: nothing is known yet about the density). */
  firstMs: number
  /** Narrowest piece, in ms. */
  minMs?: number
  /** Epoch ms, on the same clock as `now`, after which no further piece is asked for; the first always is. */
  deadline: number
  /** While this returns true (nothing worth answering yet), the walk goes on past the deadline. */
  pastDeadline?: () => boolean
  /** Upper bound on pieces, whatever happens. */
  maxPieces?: number
  now?: () => number
}

export interface PieceWalk {
  /** How far the walk got: backward, the earliest time read; forward, the latest. */
  reached: number
  /** True when the whole window was read. */
  complete: boolean
  /** Why it stopped short, when it did. */
  stoppedBy?: 'enough' | 'deadline' | 'pieces'
  pieces: number
}

/**
 * Fetches the rows of [from, to]. A piece is asked for 1 ms wider on each inner edge, so a row exactly
 * on an edge is read whether Home Assistant's bounds are inclusive or exclusive, and the walk keeps
 * each row in exactly one piece: (from, to], the window's own start included.
 */
export type PieceFetch<T> = (from: number, to: number, first: boolean) => Promise<T[]>
/** Takes one piece's rows, oldest first; returns true when it has what it needs. */
export type PieceConsume<T> = (rows: T[], from: number, to: number) => boolean

function nextWidth (width: number, rows: number, options: PieceWalkOptions, room: number): number {
  const scaled = rows === 0 ? width * 8 : width * options.targetRows / rows
  return Math.max(options.minMs ?? 1000, Math.min(scaled, width * 8, room))
}

/**
 * Walks [start, end] in pieces, newest first (`backward`) or oldest first. `timeOf` gives a row's time
 * in ms; rows come to `consume` sorted oldest first within their piece.
 */
export async function walkPieces<T> (direction: 'backward' | 'forward', start: number, end: number, timeOf: (row: T) => number, fetch: PieceFetch<T>, consume: PieceConsume<T>, options: PieceWalkOptions): Promise<PieceWalk> {
  const now = options.now ?? realClock.now
  const maxPieces = options.maxPieces ?? 200
  const backward = direction === 'backward'
  let edge = backward ? end : start
  let width = Math.min(options.firstMs, end - start)
  let pieces = 0
  while (backward ? edge > start : edge < end) {
    const from = backward ? Math.max(start, edge - width) : edge
    const to = backward ? edge : Math.min(end, edge + width)
    const raw = await fetch(from === start ? start : from - 1, to === end ? end : to + 1, pieces === 0)
    pieces++
    const rows = raw.filter(row => { const at = timeOf(row); return at <= to && (at > from || from === start) }).sort((a, b) => timeOf(a) - timeOf(b))
    edge = backward ? from : to
    const done = backward ? edge <= start : edge >= end
    if (consume(rows, from, to)) return { reached: edge, complete: done, ...(done ? {} : { stoppedBy: 'enough' as const }), pieces }
    if (done) break
    if (now() >= options.deadline && options.pastDeadline?.() !== true) return { reached: edge, complete: false, stoppedBy: 'deadline', pieces }
    if (pieces >= maxPieces) return { reached: edge, complete: false, stoppedBy: 'pieces', pieces }
    width = nextWidth(width, raw.length, options, backward ? edge - start : end - edge)
  }
  return { reached: backward ? start : end, complete: true, pieces }
}

/** Splits ids into batches of at most `size`, in order. */
export function batches<T> (items: readonly T[], size: number): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

/**
 * How long a piecewise read may keep asking Home Assistant for more: past it, the read answers with
 * what it has and says where it stopped. Well inside the 2 s a tool call should take, so the pieces
 * already in flight and the shaping still fit.
 */
export const PIECE_READ_BUDGET_MS = 1_200
