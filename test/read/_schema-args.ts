/**
 * Plausible arguments for any tool, derived from its JSON Schema, so tests that sweep the registry
 * cover a tool nobody wrote an override for.
 */
type Schema = {
  type?: string | string[]
  enum?: unknown[]
  const?: unknown
  default?: unknown
  minimum?: number
  exclusiveMinimum?: number
  maximum?: number
  minItems?: number
  pattern?: string
  items?: Schema
  properties?: Record<string, Schema>
  required?: string[]
  anyOf?: Schema[]
  oneOf?: Schema[]
}

export interface HomeSamples {
  /** Visible entity ids; the first one matching a field's pattern is used. */
  entityIds: string[]
  areaId: string
  floorId?: string
  labelId?: string
}

const ISO_HOUR_AGO = (): string => new Date(Date.now() - 3_600_000).toISOString()

function entityFor (pattern: RegExp | undefined, name: string, samples: HomeSamples): string {
  const domainHint = /statistic/.test(name) ? 'sensor.' : /automation/.test(name) ? 'automation.' : /script/.test(name) ? 'script.' : ''
  const candidates = samples.entityIds.filter(id => id.startsWith(domainHint))
  return candidates.find(id => !pattern || pattern.test(id)) ?? samples.entityIds.find(id => !pattern || pattern.test(id)) ?? candidates[0] ?? 'light.kitchen'
}

/** One value for a field; `undefined` means "leave it out". */
export function valueFor (name: string, schema: Schema, samples: HomeSamples): unknown {
  const variant = schema.anyOf?.[0] ?? schema.oneOf?.[0]
  if (variant && !schema.type) return valueFor(name, variant, samples)
  if (schema.const !== undefined) return schema.const
  if (schema.enum?.length) return schema.enum[0]
  if (schema.default !== undefined) return schema.default
  const type = Array.isArray(schema.type) ? schema.type.find(t => t !== 'null') : schema.type
  let pattern: RegExp | undefined
  try { pattern = schema.pattern ? new RegExp(schema.pattern) : undefined } catch { pattern = undefined }
  switch (type) {
    case 'string': {
      if (/entity|statistic|automation|script/.test(name) || (pattern && /\\\./.test(schema.pattern ?? ''))) return entityFor(pattern, name, samples)
      if (name === 'area' || name === 'area_id') return samples.areaId
      if (name === 'floor' || name === 'floor_id') return samples.floorId ?? 'ground_floor'
      if (name === 'label' || name === 'label_id') return samples.labelId ?? 'energy'
      if (name === 'domain') return 'light'
      if (/template/.test(name)) return '{{ 1 + 1 }}'
      if (/^(start|end|at|since|until)/.test(name)) return ISO_HOUR_AGO()
      if (name === 'slug') return 'core_mosquitto'
      if (/query|search|text|goal/.test(name)) return 'light'
      return pattern && !pattern.test('test') ? undefined : 'test'
    }
    case 'integer':
    case 'number': return schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1)
    case 'boolean': return false
    case 'array': {
      const item = valueFor(name, schema.items ?? {}, samples)
      return item === undefined ? [] : [item]
    }
    case 'object': return argsFromSchema(schema, samples)
    default: return undefined
  }
}

/** The required fields only: the broadest call the tool accepts. */
export function argsFromSchema (schema: Schema, samples: HomeSamples): Record<string, unknown> {
  const args: Record<string, unknown> = {}
  for (const name of schema.required ?? []) {
    const value = valueFor(name, schema.properties?.[name] ?? {}, samples)
    if (value !== undefined) args[name] = value
  }
  return args
}

/** Extra calls: each value of every enum field, on top of the base arguments. */
export function enumVariants (schema: Schema, base: Record<string, unknown>): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = []
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const values = property.enum ?? property.anyOf?.flatMap(v => v.enum ?? []) ?? []
    for (const value of values.slice(0, 8)) if (base[name] !== value) out.push({ ...base, [name]: value })
  }
  return out
}

/** Fields that take entity ids (string or array), with the pattern a value must match. */
export function entityFields (schema: Schema): Array<{ name: string, pattern?: RegExp, array: boolean }> {
  const out: Array<{ name: string, pattern?: RegExp, array: boolean }> = []
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (!/entity|statistic|automation|^entities$/.test(name)) continue
    const variants = [property, ...(property.anyOf ?? []), ...(property.oneOf ?? [])]
    const stringVariant = variants.find(v => v.type === 'string')
    const arrayVariant = variants.find(v => v.type === 'array')
    const source = stringVariant ?? arrayVariant?.items
    let pattern: RegExp | undefined
    try { pattern = source?.pattern ? new RegExp(source.pattern) : undefined } catch { pattern = undefined }
    out.push({ name, pattern, array: !stringVariant && Boolean(arrayVariant) })
  }
  return out
}
