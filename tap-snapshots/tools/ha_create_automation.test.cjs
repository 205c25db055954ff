/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_create_automation > ha_create_automation 1`] = `
Object {
  "category": "automations",
  "everyday": true,
  "kind": "manage",
  "listing": Object {
    "description": "HA's automation schema as JSON; HA validates it, then the user confirms its YAML.",
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
          "type": "string",
        },
        "dry_run": Object {
          "type": "boolean",
        },
        "max_exceeded": Object {
          "type": "string",
        },
        "mode": Object {
          "default": "single",
          "enum": Array [
            "single",
            "restart",
            "queued",
            "parallel",
          ],
          "type": "string",
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
          "type": "object",
        },
      },
      "required": Array [
        "alias",
        "triggers",
        "actions",
      ],
      "type": "object",
    },
    "name": "ha_create_automation",
    "title": "Create automation",
  },
  "title": "Create automation",
}
`
