import { readFileSync } from 'node:fs'
const { entityEntrySchema, deviceSchema, parseList } = await import('./dist/src/ha/schemas.js')
const mb = () => { globalThis.gc(); globalThis.gc(); return process.memoryUsage().heapUsed / 1048576 }
let base = mb()
const step = (label) => { const now = mb(); console.log(label.padEnd(30), (now - base).toFixed(1), 'MB'); base = now }
for (const [file, schema] of [['config_entity_registry_list', entityEntrySchema], ['config_device_registry_list', deviceSchema]]) {
  let text = readFileSync(`/tmp/rss/${file}.json`, 'latin1'); text = readFileSync(`/tmp/rss/${file}.json`, 'utf8')
  step(file + ' string')
  let msg = JSON.parse(text)
  step('parsed')
  const items = parseList(schema, msg.result, 'x').items
  step('zod items')
  text = undefined; msg = undefined
  step('raw dropped (items remain)')
  globalThis.keep = (globalThis.keep ?? []).concat([items])
}
