/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_set_automation > ha_set_automation 1`] = `
Object {
  "category": "automations",
  "everyday": true,
  "kind": "write",
  "listing": Object {
    "annotations": Object {
      "destructiveHint": false,
      "idempotentHint": true,
    },
    "description": "Enable or disable an automation.",
    "inputSchema": Object {
      "properties": Object {
        "confirm_token": Object {
          "type": "string",
        },
        "dry_run": Object {
          "type": "boolean",
        },
        "enabled": Object {
          "type": "boolean",
        },
        "entity_id": Object {
          "type": "string",
        },
      },
      "required": Array [
        "entity_id",
        "enabled",
      ],
      "type": "object",
    },
    "name": "ha_set_automation",
    "title": "Enable or disable an automation",
  },
  "title": "Enable or disable an automation",
}
`
