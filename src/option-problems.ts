import { MAX_LIST_ITEMS, SAFETY_LISTS, type SafetyList } from './options.ts'

/**
 * Something in options.json the add-on could not use as written, and what it did instead. The log
 * gets one line per problem; the status page lists them on its Overview.
 */
export interface OptionProblem {
  /** The option, or null for the file as a whole. */
  option: string | null
  /** 1-based position of a list item, for an item dropped from a list. */
  item?: number
  /** The item as written (JSON, shortened), for an item dropped from a list. */
  value?: string
  /** The value used instead, for `strictest_used`. */
  used?: string
  reason: string
  /**
   * `item_dropped`: the item alone was left out, the rest of the list kept. `default_used`: the
   * option's default applies. `writes_off`: a safety list could not be read, so allow_write and
   * allow_config_write are off until it is fixed. `strictest_used`: a protection that could not be
   * read takes its strictest value (`used`): filter_reads on, confirm_with owner.
   */
  effect: 'item_dropped' | 'default_used' | 'writes_off' | 'strictest_used'
}

/** The options a safety list that cannot be read turns off. */
export const WRITE_OPTIONS = ['allow_write', 'allow_config_write'] as const

const EFFECT_TEXT: Record<OptionProblem['effect'], (problem: OptionProblem) => string> = {
  item_dropped: () => 'dropped, the other items kept',
  default_used: () => 'using its default',
  writes_off: () => `writes are off (${WRITE_OPTIONS.join(' and ')}) until it is fixed`,
  strictest_used: problem => `using ${problem.used ?? ''}, the strictest value, until it is fixed`
}

/** Options that protect the home, with the value used when what options.json holds cannot be read. */
export const STRICTEST = { filter_reads: true, confirm_with: 'owner' } as const

/** The log line of a problem: which option, which item, why, and what the add-on did. */
export function describeProblem (problem: OptionProblem): string {
  const where = problem.option === null ? 'options.json' : `option ${problem.option}`
  const item = problem.item === undefined ? '' : `: item ${problem.item} (${problem.value ?? ''})`
  return `${where}${item}: ${problem.reason}; ${EFFECT_TEXT[problem.effect](problem)}`
}

function shown (value: unknown): string {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 60 ? `${text.slice(0, 57)}...` : text
}

function kindOf (value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'a list'
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}

/**
 * Reads one safety list item by item. A bad item is dropped alone; a value that is not a list, a
 * list over the item cap, or a list whose every item is bad cannot be read: its default would say
 * less than the owner wrote (an empty allowlist allows everything), so writes go off instead.
 */
export function readSafetyList (option: SafetyList, raw: unknown): { items: string[] | undefined, problems: OptionProblem[] } {
  if (!Array.isArray(raw)) {
    return { items: undefined, problems: [{ option, reason: `not a list (${kindOf(raw)})`, effect: 'writes_off' }] }
  }
  if (raw.length > MAX_LIST_ITEMS) {
    return { items: undefined, problems: [{ option, reason: `${raw.length} items, more than the ${MAX_LIST_ITEMS} a list may hold`, effect: 'writes_off' }] }
  }
  const schema = SAFETY_LISTS[option]
  const items: string[] = []
  const problems: OptionProblem[] = []
  raw.forEach((value: unknown, index) => {
    const parsed = schema.safeParse(value)
    if (parsed.success) items.push(parsed.data)
    else problems.push({ option, item: index + 1, value: shown(value), reason: parsed.error.issues[0]?.message ?? 'unreadable', effect: 'item_dropped' })
  })
  if (raw.length > 0 && items.length === 0) {
    problems.push({ option, reason: 'no item of the list can be used', effect: 'writes_off' })
    return { items: undefined, problems }
  }
  return { items, problems }
}
