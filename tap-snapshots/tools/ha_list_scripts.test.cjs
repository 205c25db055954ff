/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_list_scripts > ha_list_scripts 1`] = `
Object {
  "category": "automations",
  "everyday": true,
  "kind": "read",
  "listing": Object {
    "annotations": Object {
      "readOnlyHint": true,
    },
    "description": "Scripts: running, mode, last_triggered; paged.",
    "inputSchema": Object {
      "properties": Object {
        "limit": Object {
          "default": 100,
          "maximum": 200,
          "minimum": 1,
          "type": "integer",
        },
        "offset": Object {
          "minimum": 0,
          "type": "integer",
        },
      },
      "type": "object",
    },
    "name": "ha_list_scripts",
    "title": "List scripts",
  },
  "title": "List scripts",
}
`
