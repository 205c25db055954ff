// Issue 18 item 5, through the SDK client: what models send loosely is read as meant, for every tool,
// and anything else is refused with the form the field expects.
import t from 'tap'
import { callTool, connectClient, startHome, startServer } from '../helper.ts'
import type { z } from 'zod'
import { sweepCatalog } from './_catalog.ts'

t.test('numbers as numeric strings and one id where a list is declared', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_config_write: true } })
  const client = await connectClient(t, server)

  const two = await callTool(client, 'ha_list_entities', { domain: 'light', limit: '2' })
  t.notOk(two.isError, two.text)
  t.equal(two.json.items.length, 2, '"limit": "2" pages by 2')
  t.same(two.json, (await callTool(client, 'ha_list_entities', { domain: 'light', limit: 2 })).json, 'the same answer as limit: 2')

  const light = two.json.items[0].entity_id as string
  const history = await callTool(client, 'ha_get_history', { entity_id: [light], hours: ' 0.5 ' })
  t.notOk(history.isError, `"hours": " 0.5 " is half an hour: ${history.text}`)

  const single = await callTool(client, 'ha_update_entities', { entity_ids: light, hidden: true, dry_run: true })
  t.notOk(single.isError, single.text)
  const listed = await callTool(client, 'ha_update_entities', { entity_ids: [light], hidden: true, dry_run: true })
  t.same(single.json, listed.json, 'one id alone is a list of one')
})

t.test('anything else is refused with the expected form', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_config_write: true } })
  const client = await connectClient(t, server)

  const lots = await callTool(client, 'ha_list_entities', { limit: 'lots' })
  t.equal(lots.code, 'HAMCP_INVALID_ARGUMENT')
  t.match(lots.text, 'limit: expected an integer from 1 to 200, e.g. 50 (got "lots")')
  const words = await callTool(client, 'ha_list_entities', { limit: '5 lights' })
  t.match(words.text, 'limit: expected an integer from 1 to 200', 'a number in a sentence is not a number')
  const big = await callTool(client, 'ha_list_entities', { limit: '5000' })
  t.match(big.text, /limit: .*200/, 'a numeric string is still held to the bounds')
  const flag = await callTool(client, 'ha_update_entities', { entity_ids: ['light.kitchen'], hidden: 'yes' })
  t.match(flag.text, 'hidden: expected true or false (got "yes")')
  const number = await callTool(client, 'ha_update_entities', { entity_ids: 5, hidden: true })
  t.match(number.text, 'entity_ids.0: expected a string (got 5)', 'a bare value of the wrong type is named inside the list it became')
  const hours = await callTool(client, 'ha_get_history', { entity_id: ['light.kitchen'], hours: 'a day' })
  t.match(hours.text, 'hours: expected a number from ')
})

// Issue 17 item 9: ids are read as Home Assistant's cv.entity_id reads them, any case, lower-cased
// before anything looks them up, by every tool alike.
t.test('a mixed-case id finds the entity, as Home Assistant would', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home })
  const client = await connectClient(t, server)
  const light = (await callTool(client, 'ha_list_entities', { domain: 'light', limit: 1 })).json.items[0].entity_id as string
  const shouted = light.replace(/(^|[._])([a-z])/g, (_m, sep: string, c: string) => sep + c.toUpperCase())
  t.not(shouted, light)

  const exact = await callTool(client, 'ha_get_entity', { entity_id: light })
  const mixed = await callTool(client, 'ha_get_entity', { entity_id: shouted })
  t.notOk(mixed.isError, `ha_get_entity("${shouted}"): ${mixed.text}`)
  t.same(mixed.json, exact.json, 'the same answer as the lower-case id')

  const history = await callTool(client, 'ha_get_history', { entity_id: [shouted], hours: 1 })
  t.notOk(history.isError, `ha_get_history: ${history.text}`)
  const statistics = await callTool(client, 'ha_get_statistics', { statistic_id: 'Sensor.Does_Not_Exist' })
  t.match(statistics.text, 'sensor.does_not_exist', 'a statistic id is looked up lower-cased too')
  const domain = await callTool(client, 'ha_list_entities', { domain: 'LIGHT', limit: 1 })
  t.same(domain.json.items[0].entity_id, light, 'a domain in capitals is the domain')
})

const DOMAINS = ['light', 'sensor', 'camera', 'weather', 'todo', 'calendar', 'automation', 'script', 'input_boolean', 'notify', 'assist_satellite', 'media_player', 'scene']
const ID_FIELD = /(^|_)(entity_ids?|entities|statistic_id|target)$/

function parses (schema: z.ZodType, value: unknown): { ok: boolean, data: unknown } {
  const result = schema.safeParse(value)
  return { ok: result.success, data: result.success ? result.data : undefined }
}

t.test('every tool that takes an entity id accepts it in any case and lower-cases it', async t => {
  const catalog = await sweepCatalog(t.comment)
  let checked = 0
  for (const tool of catalog.tools) {
    const shape = tool.definition.input.shape as Record<string, z.ZodType>
    for (const [field, schema] of Object.entries(shape)) {
      if (!ID_FIELD.test(field)) continue
      // The first domain the field accepts, alone or as a list of one.
      const accepted = DOMAINS.flatMap(domain => [`${domain}.kitchen`, [`${domain}.kitchen`]]).find(value => parses(schema, value).ok)
      if (accepted === undefined) continue
      const id = Array.isArray(accepted) ? accepted[0] as string : accepted
      const shouted = id.toUpperCase()
      const read = parses(schema, Array.isArray(accepted) ? [shouted] : shouted)
      t.ok(read.ok, `${tool.definition.name}.${field} accepts ${shouted}`)
      t.same(read.data, accepted, `${tool.definition.name}.${field} reads ${shouted} as ${id}`)
      checked++
    }
  }
  t.ok(checked >= 20, `${checked} id fields checked`)
})
