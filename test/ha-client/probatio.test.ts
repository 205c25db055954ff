// The probatio model (./probatio.ts) held to what probatio's own tests and docs say
// (tests/codecs/test_from_openapi.py, tests/codecs/test_openapi.py, docs/.../guides/openapi.md), so the
// tool-schema test that leans on it checks Home Assistant 2026.9+ and not a guess.
import t from 'tap'
import { fromOpenapi, toOpenapi, validate, type PNode } from './probatio.ts'

const accepts = (schema: unknown, value: unknown): boolean => validate(fromOpenapi(schema), value) === undefined
const int: PNode = { k: 'type', t: 'int' }
const str: PNode = { k: 'type', t: 'str' }
const none: PNode = { k: 'none' }
const schemaOf = (inner: PNode): PNode => ({ k: 'schema', inner, extra: 'prevent' })
const sortedEnum = (schema: Record<string, unknown>): unknown => ({ ...schema, enum: [...(schema.enum as string[])].sort() })

t.test('from_openapi decodes as probatio\'s tests say', async t => {
  // test_nullable_accepts_none_and_value
  t.ok(accepts({ type: 'integer', nullable: true }, 3))
  t.ok(accepts({ type: 'integer', nullable: true }, null))
  t.notOk(accepts({ type: 'integer', nullable: true }, 'nope'))
  // test_nullable_object
  const object = { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'], nullable: true }
  t.ok(accepts(object, { a: 1 }))
  t.ok(accepts(object, null))
  // test_nullable_applies_to_combinator_nodes
  for (const node of [{ enum: [1, 2], nullable: true }, { const: 5, nullable: true }, { anyOf: [{ type: 'integer' }, { type: 'string' }], nullable: true }, { allOf: [{ type: 'integer' }], nullable: true }]) {
    t.ok(accepts(node, null), `null through ${JSON.stringify(node)}`)
  }
  // test_type_array_with_null
  t.ok(accepts({ type: ['string', 'null'] }, 'x'))
  t.ok(accepts({ type: ['string', 'null'] }, null))
  t.notOk(accepts({ type: ['string', 'null'] }, 5))
  // test_array_item_count_bounds
  const bounded = { type: 'array', items: { type: 'integer' }, minItems: 1, maxItems: 2 }
  t.ok(accepts(bounded, [1, 2]))
  t.notOk(accepts(bounded, []))
  t.notOk(accepts(bounded, [1, 2, 3]))
  // test_date_time_format_becomes_datetime
  t.ok(accepts({ type: 'string', format: 'date-time' }, '2024-01-02T03:04:05.000000Z'))
  t.notOk(accepts({ type: 'string', format: 'date-time' }, 'not a datetime'))
  // test_array_item_bounds_without_items
  t.ok(accepts({ type: 'array', minItems: 2 }, [1, 'two', 3.0]))
  t.notOk(accepts({ type: 'array', minItems: 2 }, [1]))
  // _JsonNumberType: JSON's data model, not Python's (no bool as a number; 1.0 is an integer).
  t.notOk(accepts({ type: 'integer' }, true))
  t.ok(accepts({ type: 'number' }, 24), 'a whole number is a number (unlike voluptuous-openapi)')
  t.notOk(accepts({ type: 'integer' }, 2.5))
  // _object_base: declared properties close the object; additionalProperties true opens it; a bare object is any dict.
  t.notOk(accepts({ type: 'object', properties: { a: { type: 'string' } } }, { a: 'x', b: 1 }))
  t.ok(accepts({ type: 'object', properties: { a: { type: 'string' } }, additionalProperties: true }, { a: 'x', b: 1 }))
  t.ok(accepts({ type: 'object' }, { anything: [1] }))
  // Refused outright, failing the tool list (_reject_unsupported, _from_typed, _from_array).
  for (const bad of [{ type: 'object', patternProperties: {} }, { type: 'whatever' }, { type: 'array', items: [{ type: 'string' }] }, { type: 'string', minLength: -1 }, { type: 'integer', exclusiveMinimum: true }]) {
    t.throws(() => fromOpenapi(bad), { name: 'SchemaError' }, `refused: ${JSON.stringify(bad)}`)
  }
})

t.test('to_openapi renders as probatio\'s tests and docs say (OpenAPI 3.0, the default)', async t => {
  // probatio's docs/guides/openapi.md, "Both directions"
  t.same(toOpenapi(schemaOf({ k: 'mapping', keys: [{ key: { name: 'name', required: true }, value: str }, { key: { name: 'port', required: false, default: { value: 8080 } }, value: int }] })), {
    type: 'object', properties: { name: { type: 'string' }, port: { type: 'integer', default: 8080 } }, required: ['name'], additionalProperties: false
  })
  // docs: "The nullable keyword"
  t.same((toOpenapi(schemaOf({ k: 'mapping', keys: [{ key: { name: 'nickname', required: false }, value: { k: 'maybe', inner: str } }] })).properties as Record<string, unknown>).nickname, { type: 'string', nullable: true })
  // test_any_with_null_branch_admits_null_directly
  t.same(toOpenapi({ k: 'any', branches: [int, str, none] }), { anyOf: [{ type: 'integer' }, { type: 'string' }, { type: 'object', nullable: true, description: 'Must be null' }] })
  // test_any_with_open_object_keeps_all_branches
  t.same(toOpenapi({ k: 'any', branches: [{ k: 'type', t: 'dict' }, int] }), { anyOf: [{ type: 'object', additionalProperties: true }, { type: 'integer' }] })
  // test_nested_nullable_any_flattens_and_admits_null_once
  t.same(toOpenapi({ k: 'any', branches: [{ k: 'any', branches: [int, str, none] }, { k: 'type', t: 'bool' }] }), {
    anyOf: [{ type: 'integer' }, { type: 'string' }, { type: 'boolean' }, { type: 'object', nullable: true, description: 'Must be null' }]
  })
  // test_merging_hashable_enums_dedups
  t.same(sortedEnum(toOpenapi({ k: 'any', branches: [{ k: 'in', values: ['a', 'b'] }, { k: 'in', values: ['b', 'c'] }] })), { type: 'string', enum: ['a', 'b', 'c'] })
  // test_multi_item_array, test_empty_array_accepts_only_empty
  t.same(toOpenapi({ k: 'seq', items: [int, str] }), { type: 'array', items: { anyOf: [{ type: 'integer' }, { type: 'string' }] } })
  t.same(toOpenapi({ k: 'seq', items: [] }), { type: 'array', maxItems: 0 })
  // test_default_version_is_3_0: Schema(None)
  t.same(toOpenapi(none), { type: 'object', nullable: true, description: 'Must be null' })
  // test_exclusive_bounds_use_the_version_form (3.0): the Draft-4 boolean, not valid draft 2020-12.
  t.same(toOpenapi({ k: 'all', parts: [int, { k: 'range', min: 0, minIncluded: false, maxIncluded: true }] }), { type: 'integer', minimum: 0, exclusiveMinimum: true })
  // test_array_length_retargets_to_item_counts
  t.same(toOpenapi({ k: 'all', parts: [{ k: 'seq', items: [int] }, { k: 'length', min: 1, max: 3 }] }), { type: 'array', items: { type: 'integer' }, minItems: 1, maxItems: 3 })
  // test_closed_mapping_forbids_extra_keys
  t.equal(toOpenapi(schemaOf({ k: 'mapping', keys: [{ key: { name: 'a', required: false }, value: int }] })).additionalProperties, false)
  // test_round_trip_through_to_openapi (in 3.0 here)
  const rebuilt = fromOpenapi(toOpenapi(fromOpenapi({ type: 'object', properties: { name: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } }, required: ['name'] })))
  t.equal(validate(rebuilt, { name: 'ada', tags: ['x'] }), undefined)
  t.ok(validate(rebuilt, { tags: ['x'] }))
})

t.test('the round trip Home Assistant runs, as the source reads: numbers come back weakened', async t => {
  // from_openapi builds _JsonNumberType, which to_openapi does not know: {} in an All, then _ensure_default.
  const roundTrip = (property: unknown): unknown => (toOpenapi(fromOpenapi({ type: 'object', properties: { n: property } })).properties as Record<string, unknown>).n
  t.same(roundTrip({ type: 'integer', minimum: 1, maximum: 50 }), { type: 'number', minimum: 1, maximum: 50 }, 'a bounded integer comes back as number')
  t.same(roundTrip({ type: 'integer', description: 'Count.' }), { description: 'Count.', type: 'string' }, 'an unbounded integer comes back as string')
  t.same(roundTrip({ anyOf: [{ type: 'number' }, { type: 'integer' }], minimum: 1 }), { type: 'number', minimum: 1 }, 'number-or-integer with a bound comes back as number')
  t.same(roundTrip({ type: 'string', enum: ['a', 'b'] }), { type: 'string', enum: ['a', 'b'] }, 'string enums survive')
  t.same(roundTrip({ type: 'array', items: { type: 'string' }, maxItems: 10 }), { type: 'array', items: { type: 'string' }, maxItems: 10 })
  t.same(roundTrip({ type: 'object', additionalProperties: true }), { type: 'object', additionalProperties: true })
})
