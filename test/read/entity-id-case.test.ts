// Issue 17 item 9: ids are read as Home Assistant's cv.entity_id reads them, any case, lower-cased
// before anything looks them up, by every tool alike.
import t from 'tap'
import type { z } from 'zod'
import { callTool, connectClient, startHome, startServer } from '../helper.ts'
import { sweepCatalog } from './_catalog.ts'

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
