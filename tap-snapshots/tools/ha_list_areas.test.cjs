/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_list_areas > ha_list_areas 1`] = `
Object {
  "category": "entities",
  "everyday": true,
  "kind": "read",
  "listing": Object {
    "annotations": Object {
      "readOnlyHint": true,
    },
    "description": "Areas with floor, aliases and entity count.",
    "inputSchema": Object {
      "properties": Object {},
      "type": "object",
    },
    "name": "ha_list_areas",
    "title": "List areas",
  },
  "title": "List areas",
}
`
