/** Helper types whose storage collections Home Assistant exposes as `<type>/create|update|delete`. */
export const HELPER_TYPES = ['input_boolean', 'input_number', 'input_select', 'input_text', 'input_datetime', 'counter', 'timer'] as const
export type HelperType = typeof HELPER_TYPES[number]
