// Issue 18 item 5, through the SDK client: what models send loosely is read as meant, for every tool,
// and anything else is refused with the form the field expects.
import t from 'tap'
import { callTool, connectClient, startHome, startServer } from '../helper.ts'

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
