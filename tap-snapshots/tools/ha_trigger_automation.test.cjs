/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_trigger_automation > ha_trigger_automation 1`] = `
Object {
  "category": "automations",
  "everyday": true,
  "kind": "write",
  "listing": Object {
    "description": "Run an automation's actions now.",
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
        "skip_condition": Object {
          "default": true,
          "type": "boolean",
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
    "name": "ha_trigger_automation",
    "title": "Trigger an automation",
  },
  "title": "Trigger an automation",
}
`
