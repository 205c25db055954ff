/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_get_presence > ha_get_presence 1`] = `
Object {
  "category": "environment",
  "everyday": true,
  "kind": "read",
  "listing": Object {
    "annotations": Object {
      "readOnlyHint": true,
    },
    "description": "People and trackers by zone name (never coordinates), zone occupancy, recent zone changes.",
    "inputSchema": Object {
      "properties": Object {
        "hours": Object {
          "default": 24,
          "description": "Hours of zone changes.",
          "maximum": 168,
          "minimum": 1,
          "type": "integer",
        },
      },
      "type": "object",
    },
    "name": "ha_get_presence",
    "title": "Get presence",
  },
  "title": "Get presence",
}
`
