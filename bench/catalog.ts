import { TOOLS_DIR } from '../app/tools-dir.ts'
import { loadToolCatalog } from '../src/mcp/runtime/registry.ts'
import { REQUESTS } from '../test/catalogue/requests.ts'
import { BUDGETS, catalogSizes, searchHitRate } from './catalog-sizes.ts'

// `npm run bench:catalog`: the tools/list sizes of each tool_list mode against their budgets, and
// ha_search_tools' top-3 hit rate on the request set of test/catalogue/requests.ts, and the 15 largest
// tools in full mode. Exit 1 when over.
const catalog = await loadToolCatalog(TOOLS_DIR)
const sizes = catalogSizes(catalog)
const rows: Array<[string, number, number]> = [
  ['core, default options (bytes)', sizes.coreDefault, BUDGETS.coreDefault],
  ['core, every option on (bytes)', sizes.coreAll, BUDGETS.coreAll],
  ['search, every option on (bytes)', sizes.search, BUDGETS.search],
  [`full, every option on (bytes per tool; ${sizes.full} B / ${sizes.fullTools} tools)`, sizes.fullPerTool, BUDGETS.fullPerTool]
]
let over = false
for (const [label, value, budget] of rows) {
  over ||= value > budget
  console.log(`${label.padEnd(62)} ${String(value).padStart(6)}  budget ${budget}${value > budget ? '  OVER' : ''}`)
}
console.log(`largest in full: ${sizes.largest.slice(0, 15).map(tool => `${tool.name} ${tool.bytes}`).join(', ')}`)
const rate = searchHitRate(catalog, REQUESTS)
const percent = (100 * rate.hits / rate.total).toFixed(1)
console.log(`${'ha_search_tools top-3 hit rate'.padEnd(62)} ${percent.padStart(5)}%  (${rate.hits}/${rate.total}; budget 95%)`)
for (const miss of rate.misses) console.log(`  miss: ${JSON.stringify(miss.request)} expected ${miss.expected}, found ${miss.found.join(', ') || 'nothing'}`)
if (over || rate.hits / rate.total < 0.95) process.exitCode = 1
