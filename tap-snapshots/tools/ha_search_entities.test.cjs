/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_search_entities > ha_search_entities 1`] = `
Object {
  "category": "entities",
  "everyday": true,
  "kind": "read",
  "listing": Object {
    "annotations": Object {
      "readOnlyHint": true,
    },
    "description": "Start here: entities whose id, name, aliases, area, floor or labels match every word.",
    "inputSchema": Object {
      "properties": Object {
        "limit": Object {
          "default": 20,
          "maximum": 50,
          "minimum": 1,
          "type": "integer",
        },
        "query": Object {
          "description": "Words, e.g. \\"kitchen light\\".",
          "type": "string",
        },
      },
      "required": Array [
        "query",
      ],
      "type": "object",
    },
    "name": "ha_search_entities",
    "title": "Search entities",
  },
  "title": "Search entities",
}
`
