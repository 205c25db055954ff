/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_list_blueprints > ha_list_blueprints 1`] = `
Object {
  "category": "automations",
  "everyday": false,
  "kind": "read",
  "listing": Object {
    "annotations": Object {
      "readOnlyHint": true,
    },
    "description": "Installed blueprints with their inputs (required, default, selector).",
    "inputSchema": Object {
      "properties": Object {
        "domain": Object {
          "default": "automation",
          "enum": Array [
            "automation",
            "script",
          ],
          "type": "string",
        },
        "limit": Object {
          "default": 20,
          "maximum": 50,
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
    "name": "ha_list_blueprints",
    "title": "List blueprints",
  },
  "title": "List blueprints",
}
`
