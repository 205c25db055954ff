/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_create_from_blueprint > ha_create_from_blueprint 1`] = `
Object {
  "category": "automations",
  "everyday": false,
  "kind": "manage",
  "listing": Object {
    "description": "Automation or script from a blueprint (ha_list_blueprints); the user confirms its YAML.",
    "inputSchema": Object {
      "properties": Object {
        "alias": Object {
          "type": "string",
        },
        "blueprint_path": Object {
          "description": "e.g. homeassistant/motion_light.yaml",
          "type": "string",
        },
        "confirm_token": Object {
          "type": "string",
        },
        "description": Object {
          "type": "string",
        },
        "domain": Object {
          "default": "automation",
          "enum": Array [
            "automation",
            "script",
          ],
          "type": "string",
        },
        "dry_run": Object {
          "type": "boolean",
        },
        "inputs": Object {
          "additionalProperties": true,
          "default": Object {},
          "type": "object",
        },
      },
      "required": Array [
        "blueprint_path",
        "alias",
      ],
      "type": "object",
    },
    "name": "ha_create_from_blueprint",
    "title": "Create from blueprint",
  },
  "title": "Create from blueprint",
}
`
