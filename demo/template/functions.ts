import { TemplateError } from './parse.ts'
import { DomainStates, getPath, lookupState, Namespace, pyRepr, pyStr, StatesRoot, statesOf, templateState, toNumber, truthy, type Scope } from './values.ts'

type Fn = (scope: Scope, args: unknown[], kwargs: Record<string, unknown>) => unknown

function iterable (scope: Scope, v: unknown): unknown[] {
  if (Array.isArray(v)) return v
  if (v instanceof StatesRoot) return statesOf(scope)
  if (v instanceof DomainStates) return statesOf(scope, v.domain)
  if (typeof v === 'string') return [...v]
  if (v !== null && typeof v === 'object') return Object.keys(v)
  if (v === undefined) return []
  throw new TemplateError(`TypeError: '${typeof v}' object is not iterable`)
}
export { iterable }

function numberOrDefault (v: unknown, fallback: unknown, name: string): number {
  const n = toNumber(v)
  if (!Number.isNaN(n)) return n
  if (fallback !== undefined) return fallback as number
  throw new TemplateError(`ValueError: Template error: ${name} got invalid input '${pyStr(v)}' when rendering template but no default was specified`)
}

function entityIdOf (v: unknown): string {
  return typeof v === 'object' && v !== null ? String((v as Record<string, unknown>).entity_id) : String(v)
}

export function runTest (name: string, value: unknown, args: unknown[]): boolean {
  const arg = args[0]
  switch (name) {
    case 'eq': case 'equalto': case '==': return value === arg || (typeof value === 'number' && toNumber(arg) === value)
    case 'ne': case '!=': return value !== arg
    case 'lt': case '<': return toNumber(value) < toNumber(arg)
    case 'gt': case 'greaterthan': case '>': return toNumber(value) > toNumber(arg)
    case 'le': case '<=': return toNumber(value) <= toNumber(arg)
    case 'ge': case '>=': return toNumber(value) >= toNumber(arg)
    case 'in': return Array.isArray(arg) ? arg.includes(value) : typeof arg === 'string' && typeof value === 'string' && arg.includes(value)
    case 'defined': return value !== undefined
    case 'undefined': return value === undefined
    case 'none': return value === null
    case 'string': return typeof value === 'string'
    case 'number': return typeof value === 'number'
    case 'boolean': return typeof value === 'boolean'
    case 'list': case 'sequence': case 'iterable': return Array.isArray(value) || typeof value === 'string'
    case 'mapping': return value !== null && typeof value === 'object' && !Array.isArray(value)
    case 'true': return value === true
    case 'false': return value === false
    case 'even': return toNumber(value) % 2 === 0
    case 'odd': return toNumber(value) % 2 === 1
    case 'match': return typeof value === 'string' && new RegExp(`^(?:${String(arg)})`).test(value)
    case 'search': return typeof value === 'string' && new RegExp(String(arg)).test(value)
    case 'contains': return Array.isArray(value) ? value.includes(arg) : typeof value === 'string' && value.includes(String(arg))
    default: throw new TemplateError(`TemplateSyntaxError: No test named '${name}'.`)
  }
}

function selectBy (scope: Scope, args: unknown[], byAttr: boolean, reject: boolean): unknown[] {
  const [seq, ...rest] = args
  const items = iterable(scope, seq)
  const attr = byAttr ? String(rest.shift()) : undefined
  const test = rest.length > 0 ? String(rest.shift()) : undefined
  return items.filter(item => {
    const value = attr === undefined ? item : getPath(item, attr)
    const ok = test === undefined ? truthy(value) : runTest(test, value, rest)
    return reject ? !ok : ok
  })
}

function round (v: unknown, precision = 0, method = 'common'): number {
  const n = numberOrDefault(v, undefined, 'round')
  const f = 10 ** precision
  const x = method === 'floor' ? Math.floor(n * f) : method === 'ceil' ? Math.ceil(n * f) : Math.round(n * f)
  return x / f
}

function areaIdOf (scope: Scope, v: unknown): string | null {
  const key = String(v)
  const h = scope.house
  if (h.areas.has(key)) return key
  for (const area of h.areas.values()) if (area.name.toLowerCase() === key.toLowerCase()) return area.area_id
  if (h.entities.has(key)) return h.areaOf(key)
  if (h.devices.has(key)) return h.deviceArea(key)
  return null
}

export const FILTERS: Record<string, Fn> = {
  count: (s, [v]) => iterable(s, v).length,
  length: (s, [v]) => iterable(s, v).length,
  list: (s, [v]) => [...iterable(s, v)],
  selectattr: (s, args) => selectBy(s, args, true, false),
  rejectattr: (s, args) => selectBy(s, args, true, true),
  select: (s, args) => selectBy(s, args, false, false),
  reject: (s, args) => selectBy(s, args, false, true),
  map: (s, [v, name, ...rest], kw) => {
    const items = iterable(s, v)
    if (typeof kw.attribute === 'string') return items.map(item => getPath(item, kw.attribute as string) ?? kw.default)
    const filter = FILTERS[String(name)]
    if (filter === undefined) throw new TemplateError(`TemplateAssertionError: No filter named '${String(name)}'.`)
    return items.map(item => filter(s, [item, ...rest], {}))
  },
  join: (s, [v, sep = '']) => iterable(s, v).map(pyStr).join(String(sep)),
  default: (_s, [v, fallback = '', boolean]) => v === undefined || (boolean === true && !truthy(v)) ? fallback : v,
  lower: (_s, [v]) => pyStr(v).toLowerCase(),
  upper: (_s, [v]) => pyStr(v).toUpperCase(),
  title: (_s, [v]) => pyStr(v).replace(/\w\S*/g, w => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase()),
  capitalize: (_s, [v]) => { const t = pyStr(v); return t.charAt(0).toUpperCase() + t.slice(1).toLowerCase() },
  trim: (_s, [v]) => pyStr(v).trim(),
  replace: (_s, [v, a, b]) => pyStr(v).split(String(a)).join(String(b)),
  string: (_s, [v]) => pyStr(v),
  float: (_s, [v, fallback]) => numberOrDefault(v, fallback, 'float'),
  int: (_s, [v, fallback]) => Math.trunc(numberOrDefault(v, fallback, 'int')),
  bool: (_s, [v]) => typeof v === 'string' ? ['true', 'yes', 'on', 'enable', '1'].includes(v.toLowerCase()) : truthy(v),
  round: (_s, [v, precision, method]) => round(v, Number(precision ?? 0), String(method ?? 'common')),
  abs: (_s, [v]) => Math.abs(toNumber(v)),
  sum: (s, [v]) => iterable(s, v).reduce((a: number, b) => a + toNumber(b), 0),
  min: (s, [v]) => iterable(s, v).reduce((a, b) => (a === undefined || toNumber(b) < toNumber(a) ? b : a), undefined),
  max: (s, [v]) => iterable(s, v).reduce((a, b) => (a === undefined || toNumber(b) > toNumber(a) ? b : a), undefined),
  first: (s, [v]) => iterable(s, v)[0],
  last: (s, [v]) => iterable(s, v).at(-1),
  unique: (s, [v]) => [...new Set(iterable(s, v))],
  reverse: (s, [v]) => typeof v === 'string' ? [...v].reverse().join('') : [...iterable(s, v)].reverse(),
  sort: (s, [v], kw) => {
    const items = [...iterable(s, v)]
    const key = (x: unknown): unknown => typeof kw.attribute === 'string' ? getPath(x, kw.attribute) : x
    items.sort((a, b) => { const x = key(a); const y = key(b); return typeof x === 'number' && typeof y === 'number' ? x - y : pyStr(x).localeCompare(pyStr(y)) })
    return kw.reverse === true ? items.reverse() : items
  },
  tojson: (_s, [v]) => JSON.stringify(v),
  to_json: (_s, [v]) => JSON.stringify(v),
  from_json: (_s, [v]) => JSON.parse(String(v)) as unknown,
  pprint: (_s, [v]) => pyRepr(v),
  is_defined: (_s, [v]) => { if (v === undefined) throw new TemplateError("UndefinedError: 'value' is undefined"); return v },
  contains: (_s, [v, x]) => runTest('contains', v, [x]),
  iif: (_s, [v, a = true, b = false, none]) => v === null && none !== undefined ? none : truthy(v) ? a : b,
  as_timestamp: (_s, [v, fallback]) => { const t = typeof v === 'number' ? v * 1000 : Date.parse(String(v)); if (Number.isNaN(t)) { if (fallback !== undefined) return fallback; throw new TemplateError(`ValueError: Template error: as_timestamp got invalid input '${pyStr(v)}' when rendering template but no default was specified`) } return t / 1000 },
  timestamp_custom: (_s, [v]) => new Date(toNumber(v) * 1000).toISOString(),
  area_name: (s, [v]) => { const id = areaIdOf(s, v); return id === null ? null : s.house.areas.get(id)?.name ?? null },
  area_id: (s, [v]) => areaIdOf(s, v),
  area_entities: (s, [v]) => { const id = areaIdOf(s, v); return id === null ? [] : [...s.house.entities.keys()].filter(e => s.house.areaOf(e) === id) },
  area_devices: (s, [v]) => { const id = areaIdOf(s, v); return id === null ? [] : [...s.house.devices.values()].filter(d => s.house.deviceArea(d.id) === id).map(d => d.id) },
  floor_id: (s, [v]) => { const area = areaIdOf(s, v); return area === null ? null : s.house.areas.get(area)?.floor_id ?? null },
  floor_name: (s, [v]) => { const f = s.house.floors.get(String(v)) ?? s.house.floors.get(String(s.house.areas.get(areaIdOf(s, v) ?? '')?.floor_id)); return f?.name ?? null },
  floor_areas: (s, [v]) => [...s.house.areas.values()].filter(a => a.floor_id === String(v)).map(a => a.area_id),
  labels: (s, [v]) => v === undefined ? [...s.house.labels.keys()] : s.house.entities.get(String(v))?.labels ?? s.house.devices.get(String(v))?.labels ?? s.house.areas.get(String(v))?.labels ?? [],
  label_entities: (s, [v]) => [...s.house.entities.values()].filter(e => e.labels.includes(String(v))).map(e => e.entity_id),
  label_name: (s, [v]) => s.house.labels.get(String(v))?.name ?? null,
  device_id: (s, [v]) => s.house.entities.get(String(v))?.device_id ?? null,
  device_attr: (s, [v, attr]) => (s.house.devices.get(String(v)) as unknown as Record<string, unknown> | undefined)?.[String(attr)] ?? null,
  device_entities: (s, [v]) => [...s.house.entities.values()].filter(e => e.device_id === String(v)).map(e => e.entity_id),
  states: (s, [v, rounded]) => GLOBALS.states?.(s, [v, rounded], {}),
  state_attr: (s, [v, attr]) => GLOBALS.state_attr?.(s, [v, attr], {}),
  is_state: (s, [v, state]) => GLOBALS.is_state?.(s, [v, state], {}),
  has_value: (s, [v]) => GLOBALS.has_value?.(s, [v], {}),
  expand: (s, args) => GLOBALS.expand?.(s, args, {})
}

export const GLOBALS: Record<string, Fn> = {
  states: (s, [v]) => lookupState(s, entityIdOf(v))?.state ?? 'unknown',
  is_state: (s, [v, state]) => { const cur = lookupState(s, entityIdOf(v))?.state; return Array.isArray(state) ? state.includes(cur) : cur === state },
  state_attr: (s, [v, attr]) => lookupState(s, entityIdOf(v))?.attributes[String(attr)] ?? null,
  is_state_attr: (s, [v, attr, value]) => lookupState(s, entityIdOf(v))?.attributes[String(attr)] === value,
  has_value: (s, [v]) => { const st = lookupState(s, entityIdOf(v))?.state; return st !== undefined && st !== 'unknown' && st !== 'unavailable' },
  expand: (s, args) => args.flatMap(a => Array.isArray(a) ? a : [a]).map(a => lookupState(s, entityIdOf(a))).filter(x => x !== undefined).map(templateState),
  now: s => { s.listeners.time = true; return new Date().toISOString().replace('Z', '+00:00') },
  utcnow: s => { s.listeners.time = true; return new Date().toISOString().replace('Z', '+00:00') },
  range: (_s, args) => {
    const [a, b, step = 1] = args.length === 1 ? [0, toNumber(args[0])] : args.map(toNumber)
    const out: number[] = []
    for (let i = a as number; (step as number) > 0 ? i < (b as number) : i > (b as number); i += step as number) { out.push(i); if (out.length > 100_000) throw new TemplateError('OverflowError: Range too big. The sandbox blocks ranges larger than MAX_RANGE (100000).') }
    return out
  },
  namespace: (_s, _a, kw) => { const ns = new Namespace(); Object.assign(ns.values, kw); return ns },
  dict: (_s, _a, kw) => ({ ...kw }),
  min: (s, args) => FILTERS.min?.(s, [args.length === 1 ? args[0] : args], {}),
  max: (s, args) => FILTERS.max?.(s, [args.length === 1 ? args[0] : args], {})
}
for (const name of ['float', 'int', 'bool', 'iif', 'as_timestamp', 'area_name', 'area_id', 'area_entities', 'area_devices', 'floor_id', 'floor_name', 'floor_areas', 'labels', 'label_entities', 'label_name', 'device_id', 'device_attr', 'device_entities']) {
  GLOBALS[name] ??= FILTERS[name] as Fn
}
