/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_run_script > ha_run_script 1`] = `
Object {
  "category": "automations",
  "everyday": true,
  "kind": "write",
  "listing": Object {
    "description": "Start a script.",
    "inputSchema": Object {
      "properties": Object {
        "confirm_token": Object {
          "type": "string",
        },
        "dry_run": Object {
          "type": "boolean",
        },
        "entity_id": Object {
          "type": "string",
        },
        "variables": Object {
          "additionalProperties": true,
          "type": "object",
        },
      },
      "required": Array [
        "entity_id",
      ],
      "type": "object",
    },
    "name": "ha_run_script",
    "title": "Run a script",
  },
  "title": "Run a script",
}
`
