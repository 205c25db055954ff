import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { renderToolDocs, TOOL_DOCS_PATH } from './tool-docs.ts'

// Regenerates the tool reference; test/docs/tool-docs.test.ts fails while the committed copy is stale.
const text = await renderToolDocs()
mkdirSync(dirname(TOOL_DOCS_PATH), { recursive: true })
writeFileSync(TOOL_DOCS_PATH, text)
console.log(`wrote ${TOOL_DOCS_PATH} (${Buffer.byteLength(text)} bytes)`)
