/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_add_dashboard_card > ha_add_dashboard_card 1`] = `
Object {
  "category": "dashboards",
  "everyday": false,
  "kind": "manage",
  "listing": Object {
    "description": "Appends to a view of a storage dashboard; the user confirms a diff.",
    "inputSchema": Object {
      "properties": Object {
        "card": Object {
          "additionalProperties": true,
          "description": "e.g. {\\"type\\":\\"tile\\",\\"entity\\":\\"light.kitchen\\"}",
          "type": "object",
        },
        "confirm_token": Object {
          "type": "string",
        },
        "dashboard": Object {
          "default": "lovelace",
          "description": "url_path (lovelace = Overview).",
          "type": "string",
        },
        "dry_run": Object {
          "type": "boolean",
        },
        "view": Object {
          "default": 0,
          "description": "Index, path or title.",
          "minimum": 0,
          "type": "integer",
        },
      },
      "required": Array [
        "card",
      ],
      "type": "object",
    },
    "name": "ha_add_dashboard_card",
    "title": "Add dashboard card",
  },
  "title": "Add dashboard card",
}
`
