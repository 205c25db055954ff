// Home Assistant's own MCP client converts every tool's inputSchema (voluptuous-openapi up to Core
// 2026.8, probatio after) and fails the WHOLE tool list when one schema does not convert; the converted
// schema then validates every argument object before the call reaches us, and with probatio it is
// written back (to_openapi) for the model, checked as draft 2020-12 by the Anthropic API. Gemini's
// function declarations refuse anything outside the portable subset and disable every tool. This file
// holds all of that for every tool the catalogue can list, under every option set, new tools included
// (the catalogue is read, not a list).
import { Ajv2020 } from 'ajv/dist/2020.js'
import t from 'tap'
import { ALL_LEVELS, type Identity } from '../../src/auth/identity.ts'
import { loadToolCatalog } from '../../src/mcp/runtime/registry.ts'
import { optionsSchema, type Options } from '../../src/options.ts'
import { connectClient, startHome, startServer } from '../helper.ts'
import { portableProblems } from './portable.ts'
import { fromOpenapi, toOpenapi, validate } from './probatio.ts'
import { conversionProblem, convertToVoluptuous, pythonRegexProblem } from './voluptuous-openapi.ts'
import { TOOLS_DIR } from '../../app/tools-dir.ts'
import { isRecord } from '../../src/shape.ts'

type Schema = Record<string, unknown>

t.test('the model follows the library: what its own tests say converts, refuses and validates', async t => {
  // tests/test_lib.py: test_reverse_unknown_type, test_convert_to_voluptuous_wrong_type, test_unsupported_features.
  for (const bad of [{}, { type: 'unknown' }, { oneOf: ['integer'] }, { oneOf: 'integer' }, 'a', { type: 'integer', multipleOf: 2 }, { type: 'array', items: { minItems: 1 } }]) {
    t.ok(conversionProblem(bad), `refused: ${JSON.stringify(bad)}`)
  }
  // The rules the library's source adds (convert_to_voluptuous).
  const refused: Array<[unknown, RegExp]> = [
    [{ type: 'array' }, /items/],
    [{ type: 'object', properties: { a: { type: 'array', description: 'no items' } } }, /items/],
    [{ allOf: [{ type: 'string' }] }, /allOf/],
    [{ type: 'array', items: { type: 'string' }, uniqueItems: true }, /uniqueItems/],
    [{ enum: 'a' }, /enum should be a list/],
    [{ anyOf: { type: 'string' } }, /anyOf should be a list/],
    [{ type: [] }, /cannot be empty/],
    [{ type: 'object', additionalProperties: {} }, /missing type/],
    [{ type: 'object', properties: { x: {} } }, /missing type/],
    [{ const: 'on' }, /missing type/],
    [{ type: 'string', pattern: '(?<year>\\d{4})' }, /Python/],
    [{ type: 'array', items: [{ type: 'string' }] }, /dictionary/]
  ]
  for (const [schema, why] of refused) t.match(conversionProblem(schema), why, `refused: ${JSON.stringify(schema)}`)
  const accepted: unknown[] = [
    { type: 'array', items: { oneOf: [{ type: 'string' }, { type: 'integer' }] } },
    { type: ['string', 'null'] },
    { type: 'string', nullable: true },
    { enum: [1, 2, 3] },
    { enum: ['a'], uniqueItems: true },
    { type: 'object', properties: { a: { type: 'string' } }, anyOf: [{ required: ['a'] }] },
    { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
    { type: 'object', additionalProperties: true },
    { type: 'string', const: 'x', not: { type: 'integer' } },
    { $ref: '#/$defs/missing' }
  ]
  for (const schema of accepted) t.equal(conversionProblem(schema), undefined, `converts: ${JSON.stringify(schema)}`)

  // tests/test_validation.py and test_lib.py validation facts.
  const check = (schema: unknown, good: unknown[], bad: unknown[]): void => {
    const validate = convertToVoluptuous(schema)
    for (const value of good) t.equal(validate(value), undefined, `${JSON.stringify(schema)} accepts ${JSON.stringify(value)}`)
    for (const value of bad) t.ok(validate(value), `${JSON.stringify(schema)} refuses ${JSON.stringify(value)}`)
  }
  check({ type: 'string', minLength: 1, maxLength: 10 }, ['hello', 'A'.repeat(10)], [123, '', 'A'.repeat(12)])
  check({ type: 'integer', minimum: 1, maximum: 10 }, [1, 10], [0, 11, 5.5, 'abc'])
  check({ type: 'number', minimum: 1, maximum: 10 }, [1.5, 5.5, 9.9], [0.5, 10.1, 'abc'])
  check({ type: 'string', pattern: '^\\d{3}-\\d{2}-\\d{4}$' }, ['555-10-2020'], ['555-1-2020', '555', 'abc'])
  check({ type: 'array', items: { type: 'string' } }, [['a'], ['a', 'b']], ['abc', 123])
  check({ type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } }, required: ['id'] }, [{ id: 1, name: 'hello' }, { id: 1 }], [{ id: 'abc', name: 'hello' }, { name: 'hello' }, 'abc', 123])
  check({ type: 'object', properties: { id: { type: 'integer' } }, additionalProperties: true }, [{ id: 1 }, { id: 1, 'extra-key': 'hello' }], [123])
  check({ oneOf: [{ type: 'string' }, { type: 'integer' }] }, [1, 10, 'hello'], [1.4, { key: 'value' }])
  check({ anyOf: [{ type: 'string' }, { type: 'null' }] }, ['hello', '', null], [1, 1.4, { key: 'value' }])
  check({ type: 'string', format: 'date-time' }, ['2025-01-01T12:32:55.11Z'], ['2021-01-01', 'abc'])
  // voluptuous facts the library's tests lean on without spelling out: no extra keys unless allowed,
  // and Python's float type refuses a whole number, which json.loads hands over as an int.
  check({ type: 'object', properties: { id: { type: 'integer' } } }, [{ id: 1 }], [{ id: 1, other: 2 }])
  check({ type: 'object' }, [{}], [{ brightness_pct: 50 }])
  check({ type: 'number' }, [2.5], [24])
  check({ type: ['number', 'integer'], minimum: 0.25 }, [24, 2.5], [0, 'x'])
  // anyOf returns before the bounds beside it are read: only the branches' own keywords count.
  check({ anyOf: [{ type: 'number' }, { type: 'integer' }], minimum: 0.25 }, [24, 2.5, 0], ['x', null])
  check({ type: 'string', format: 'date-time' }, [], ['2025-01-01T12:32:55Z', '2025-01-01T12:32:55.110+01:00'])

  t.equal(pythonRegexProblem('^[a-z_]+\\.[a-z0-9_]+$'), undefined)
  t.match(pythonRegexProblem('\\p{L}+'), /bad escape/)
  t.match(pythonRegexProblem('\\u{1F600}'), /\\u\{/)
  t.equal(pythonRegexProblem('(?<=a)b(?<!c)'), undefined, 'lookbehinds are fine in both')
})

/** Every combination of the options that change which tools exist or how they look. */
function optionSets (): Array<Partial<Options>> {
  const flags = ['allow_write', 'allow_config_write', 'allow_camera', 'allow_addon_control', 'enable_sessions', 'filter_reads'] as const
  const sets: Array<Partial<Options>> = []
  for (let mask = 0; mask < 1 << flags.length; mask++) {
    sets.push(Object.fromEntries(flags.map((flag, i) => [flag, (mask & (1 << i)) !== 0])))
  }
  return sets
}

/**
 * Arguments filling every property the schema lists, with values a model typically sends: the first
 * enum value, a short string, a whole number in range, a key in every open object. What HA's
 * validator refuses here, it refuses from every model.
 */
function broadArguments (schema: unknown): unknown {
  if (!isRecord(schema)) return null
  if (Array.isArray(schema.enum)) return schema.enum[0]
  const branch = schema.oneOf ?? schema.anyOf
  if (Array.isArray(branch) && schema.type === undefined) {
    const { anyOf: _a, oneOf: _o, ...beside } = schema
    return broadArguments({ ...(branch[0] as Schema), ...beside })
  }
  const type = Array.isArray(schema.type) ? schema.type.find(t => t !== 'null') : schema.type
  switch (type) {
    case 'string': return schema.format === 'date-time' ? '2026-12-01T08:00:00Z' : 'light.kitchen'
    case 'boolean': return false
    case 'integer':
    case 'number': {
      const min = typeof schema.minimum === 'number' ? Math.ceil(schema.minimum) : 1
      const max = typeof schema.maximum === 'number' ? Math.floor(schema.maximum) : min
      return Math.min(Math.max(min, 1), Math.max(max, min))
    }
    case 'array': {
      const count = typeof schema.minItems === 'number' && schema.minItems > 1 ? schema.minItems : 1
      return Array.from({ length: count }, () => broadArguments(schema.items))
    }
    case 'object': {
      const out: Schema = {}
      const properties = isRecord(schema.properties) ? schema.properties : {}
      for (const [key, sub] of Object.entries(properties)) out[key] = broadArguments(sub)
      if (schema.properties === undefined) out.some_key = 'value'
      return out
    }
    default: return null
  }
}

/** Hazards that convert but hurt: each one makes HA refuse what a model sends. */
function validationHazards (schema: unknown, path: string, out: string[]): void {
  if (Array.isArray(schema)) { schema.forEach((s, i) => { validationHazards(s, `${path}[${i}]`, out) }); return }
  if (!isRecord(schema)) return
  if (schema.format === 'date-time' && schema.pattern === undefined) out.push(`${path}: format date-time makes HA demand fractional seconds and a Z`)
  if (typeof schema.pattern === 'string') {
    const problem = pythonRegexProblem(schema.pattern)
    if (problem !== undefined) out.push(`${path}: pattern ${problem}`)
  }
  for (const key of ['oneOf', 'anyOf', 'items', 'additionalProperties']) validationHazards(schema[key], `${path}/${key}`, out)
  if (isRecord(schema.properties)) for (const [key, sub] of Object.entries(schema.properties)) validationHazards(sub, `${path}.${key}`, out)
}

const draft2020 = new Ajv2020({ strict: false, validateFormats: false })

/** What Core 2026.9+ does with one inputSchema, and what goes wrong, if anything. */
function probatioProblems (schema: Schema): string[] {
  let decoded
  try {
    decoded = fromOpenapi(schema)
  } catch (err) {
    return [`from_openapi: ${(err as Error).name}: ${(err as Error).message}`]
  }
  const problems: string[] = []
  const typical = broadArguments(schema)
  const refusal = validate(decoded, typical)
  if (refusal !== undefined) problems.push(`refuses typical arguments ${JSON.stringify(typical)}: ${refusal}`)
  const written = toOpenapi(decoded)
  if (!draft2020.validateSchema(written)) problems.push(`to_openapi output is not draft 2020-12: ${draft2020.errorsText(draft2020.errors)}`)
  // The model reads the written-back schema: what it then sends must pass the validator HA built.
  const fromWritten = broadArguments(written)
  const refused = validate(decoded, fromWritten)
  if (refused !== undefined) problems.push(`refuses what the written-back schema asks for, ${JSON.stringify(fromWritten)}: ${refused}`)
  return problems
}

t.test('every tool schema is portable and passes both of Home Assistant\'s converters under every option set', async t => {
  const catalog = await loadToolCatalog(TOOLS_DIR)
  const primary: Identity = { id: 'primary', name: 'primary', levels: ALL_LEVELS }
  const seen = new Set<string>()
  for (const set of optionSets()) {
    const options = optionsSchema.parse(set)
    // Every tool the options allow (tool_list full), and the catalogue's two meta tools.
    const listed = [...catalog.listFor({ ...options, tool_list: 'full' }, primary).tools, ...catalog.meta.map(tool => tool.listing)]
    const failures = (check: (schema: Schema) => string[]): string[] => listed.flatMap(tool => check(tool.inputSchema).map(problem => `${tool.name}: ${problem}`))
    t.same(failures(portableProblems), [], `portable subset: ${JSON.stringify(set)}`)
    t.same(failures(schema => { const problem = conversionProblem(schema); return problem === undefined ? [] : [problem] }), [], `voluptuous-openapi converts: ${JSON.stringify(set)}`)
    t.same(failures(probatioProblems), [], `probatio round trip: ${JSON.stringify(set)}`)
    for (const tool of listed) seen.add(tool.name)
  }
  t.equal(seen.size, catalog.tools.length + catalog.meta.length, 'every tool of the catalogue was listed under some option set and checked')
})

t.test('the checks above catch what they are for', async t => {
  t.match(portableProblems({ type: 'object', properties: { hours: { type: ['number', 'integer'] } } }), [/hours: type must be one of/])
  t.match(portableProblems({ type: 'object', properties: { ids: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'object' }] } } } }), [/items: items of one type/])
  t.match(portableProblems({ type: 'object', properties: { x: { type: 'string', anyOf: [{ type: 'string' }] } } }), [/type beside anyOf/])
  t.match(portableProblems({ type: 'object', properties: { n: { type: 'integer', enum: [1, 2] } } }), [/enum of strings only/, /an enum is a string/])
  t.match(probatioProblems({ type: 'object', properties: { limit: { type: 'integer', description: 'Count.' } } }), [/written-back schema asks for/], 'an unbounded integer reaches the model as a string')
  t.same(probatioProblems({ type: 'object', properties: { limit: { type: 'integer', minimum: 1 } } }), [])
  t.match(probatioProblems({ type: 'object', properties: { gap: { type: 'integer', exclusiveMinimum: 0 } } }).join('\n'), /not draft 2020-12/, 'an exclusive bound comes back in the Draft-4 form')
  t.match(probatioProblems({ type: 'object', patternProperties: {} }), [/from_openapi: SchemaError/])
})

t.test('Home Assistant\'s validator lets typical arguments of every tool through', async t => {
  const catalog = await loadToolCatalog(TOOLS_DIR)
  for (const tool of catalog.tools) {
    const schema = tool.listing.inputSchema
    if (conversionProblem(schema) !== undefined) continue // reported by the test above
    const args = broadArguments(schema)
    t.equal(convertToVoluptuous(schema)(args), undefined, `${tool.listing.name} ${JSON.stringify(args)}`)
    const hazards: string[] = []
    validationHazards(schema, tool.listing.name, hazards)
    t.same(hazards, [], `${tool.listing.name}: no argument HA would refuse for a reason of its own`)
  }
})

t.test('arguments a user would ask for pass Home Assistant\'s validator', async t => {
  const catalog = await loadToolCatalog(TOOLS_DIR)
  const haValidates = (name: string, args: Schema): string | undefined => {
    const tool = catalog.byName.get(name)
    if (tool === undefined) return `no tool ${name}`
    // Both converters: Core up to 2026.8, then 2026.9+.
    return convertToVoluptuous(tool.listing.inputSchema)(args) ?? validate(fromOpenapi(tool.listing.inputSchema), args)
  }
  t.equal(haValidates('ha_call_service', { domain: 'light', service: 'turn_on', target: { entity_id: ['light.kitchen'] }, data: { brightness_pct: 50, transition: 2 } }), undefined, 'service data keys and whole numbers')
  t.equal(haValidates('ha_get_history', { entity_id: ['sensor.living_room_temperature'], hours: 24 }), undefined, 'hours: 24')
  t.equal(haValidates('ha_get_history', { entity_id: ['sensor.a', 'sensor.b'], hours: 0.5 }), undefined, 'hours: 0.5')
  t.equal(haValidates('ha_create_automation', {
    alias: 'Hall light at sunset',
    triggers: [{ trigger: 'sun', event: 'sunset' }],
    // The template shorthand ("{{ ... }}") is a string: advertised as objects, it is sent as one.
    conditions: [{ condition: 'state', entity_id: 'binary_sensor.hall_motion', state: 'on' }, { condition: 'template', value_template: '{{ is_state("person.anna", "home") }}' }],
    actions: [{ action: 'light.turn_on', target: { entity_id: 'light.hall' }, data: { brightness_pct: 40 } }],
    variables: { level: 40 }
  }), undefined, 'an automation as a model writes it')
  t.equal(haValidates('ha_create_script', { alias: 'Movie', sequence: [{ action: 'scene.turn_on', target: { entity_id: 'scene.movie' } }] }), undefined, 'a script sequence')
  t.equal(haValidates('ha_run_script', { entity_id: 'script.movie', variables: { volume: 0.3 } }), undefined, 'script variables')
  t.equal(haValidates('ha_create_helper', { helper_type: 'input_number', name: 'Level', options: { min: 0, max: 9 } }), undefined, 'helper options')
})

t.test('what tools/list sends over HTTP is what was checked', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true, allow_config_write: true, allow_camera: true, allow_addon_control: true } })
  const client = await connectClient(t, server)
  const { tools } = await client.listTools()
  const catalog = await loadToolCatalog(TOOLS_DIR)
  t.ok(tools.length > 0)
  for (const tool of tools) {
    t.equal(conversionProblem(tool.inputSchema), undefined, `${tool.name} converts as received`)
    const loaded = catalog.byName.get(tool.name) ?? catalog.meta.find(meta => meta.definition.name === tool.name)
    t.same(tool.inputSchema, loaded?.listing.inputSchema, `${tool.name} is the catalogue's listing`)
  }
})
