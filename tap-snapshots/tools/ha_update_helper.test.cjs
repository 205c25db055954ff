/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_update_helper > ha_update_helper 1`] = `
Object {
  "category": "services",
  "everyday": false,
  "kind": "write",
  "listing": Object {
    "annotations": Object {
      "destructiveHint": false,
    },
    "description": "Change a UI helper's options (dry run: stored ones).",
    "inputSchema": Object {
      "properties": Object {
        "confirm_token": Object {
          "type": "string",
        },
        "dry_run": Object {
          "type": "boolean",
        },
        "entity_id": Object {
          "description": "e.g. input_number.target",
          "type": "string",
        },
        "options": Object {
          "additionalProperties": true,
          "description": "Changed fields, e.g. {\\"max\\":30}.",
          "type": "object",
        },
      },
      "required": Array [
        "entity_id",
      ],
      "type": "object",
    },
    "name": "ha_update_helper",
    "title": "Change a helper",
  },
  "title": "Change a helper",
}
`
