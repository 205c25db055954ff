/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_manage_addon > ha_manage_addon 1`] = `
Object {
  "category": "system",
  "everyday": false,
  "kind": "manage",
  "listing": Object {
    "description": "Start, stop, restart or update an add-on through Home Assistant's services; stop and update ask for confirmation.",
    "inputSchema": Object {
      "properties": Object {
        "action": Object {
          "enum": Array [
            "start",
            "stop",
            "restart",
            "update",
            "options",
          ],
          "type": "string",
        },
        "backup": Object {
          "type": "boolean",
        },
        "confirm_token": Object {
          "type": "string",
        },
        "dry_run": Object {
          "type": "boolean",
        },
        "options": Object {
          "additionalProperties": true,
          "type": "object",
        },
        "slug": Object {
          "description": "e.g. core_mosquitto",
          "type": "string",
        },
      },
      "required": Array [
        "action",
        "slug",
      ],
      "type": "object",
    },
    "name": "ha_manage_addon",
    "title": "Manage an add-on",
  },
  "title": "Manage an add-on",
}
`
