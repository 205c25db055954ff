/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_list_updates > ha_list_updates 1`] = `
Object {
  "category": "system",
  "everyday": false,
  "kind": "read",
  "listing": Object {
    "annotations": Object {
      "readOnlyHint": true,
    },
    "description": "Pending updates (core, add-ons, firmware): versions, notes, backup/progress support.",
    "inputSchema": Object {
      "properties": Object {
        "all": Object {
          "description": "Also up-to-date ones.",
          "type": "boolean",
        },
      },
      "type": "object",
    },
    "name": "ha_list_updates",
    "title": "List updates",
  },
  "title": "List updates",
}
`
