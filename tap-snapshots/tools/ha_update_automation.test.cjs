/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_update_automation > ha_update_automation 1`] = `
Object {
  "category": "automations",
  "everyday": true,
  "kind": "manage",
  "listing": Object {
    "description": "Edit a UI automation: given fields replace, null removes; HA validates, the user confirms a diff.",
    "inputSchema": Object {
      "properties": Object {
        "actions": Object {
          "items": Object {
            "additionalProperties": true,
            "type": "object",
          },
          "minItems": 1,
          "type": "array",
        },
        "alias": Object {
          "type": "string",
        },
        "conditions": Object {
          "items": Object {
            "additionalProperties": true,
            "type": "object",
          },
          "type": "array",
        },
        "confirm_token": Object {
          "type": "string",
        },
        "description": Object {
          "nullable": true,
          "type": "string",
        },
        "dry_run": Object {
          "type": "boolean",
        },
        "entity_id": Object {
          "type": "string",
        },
        "initial_state": Object {
          "nullable": true,
          "type": "boolean",
        },
        "inputs": Object {
          "additionalProperties": true,
          "description": "Blueprint inputs.",
          "type": "object",
        },
        "max_exceeded": Object {
          "nullable": true,
          "type": "string",
        },
        "mode": Object {
          "enum": Array [
            "single",
            "restart",
            "queued",
            "parallel",
          ],
          "type": "string",
        },
        "trace": Object {
          "additionalProperties": true,
          "description": "e.g. {\\"stored_traces\\":5}",
          "nullable": true,
          "type": "object",
        },
        "triggers": Object {
          "items": Object {
            "additionalProperties": true,
            "type": "object",
          },
          "minItems": 1,
          "type": "array",
        },
        "variables": Object {
          "additionalProperties": true,
          "nullable": true,
          "type": "object",
        },
      },
      "required": Array [
        "entity_id",
      ],
      "type": "object",
    },
    "name": "ha_update_automation",
    "title": "Update automation",
  },
  "title": "Update automation",
}
`
