/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_create_script > ha_create_script 1`] = `
Object {
  "category": "automations",
  "everyday": false,
  "kind": "manage",
  "listing": Object {
    "description": "script.<slug of alias>, HA's script schema as JSON; HA validates it, then the user confirms its YAML.",
    "inputSchema": Object {
      "properties": Object {
        "alias": Object {
          "type": "string",
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
        "sequence": Object {
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
        "sequence",
      ],
      "type": "object",
    },
    "name": "ha_create_script",
    "title": "Create script",
  },
  "title": "Create script",
}
`
