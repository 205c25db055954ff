/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_manage_integration > ha_manage_integration 1`] = `
Object {
  "category": "integrations",
  "everyday": false,
  "kind": "manage",
  "listing": Object {
    "description": "Reload, enable, disable, delete an integration, change its options; accept or ignore a discovery.",
    "inputSchema": Object {
      "properties": Object {
        "action": Object {
          "enum": Array [
            "reload",
            "enable",
            "disable",
            "delete",
            "options",
            "accept_discovery",
            "ignore_discovery",
          ],
          "type": "string",
        },
        "confirm_token": Object {
          "type": "string",
        },
        "dry_run": Object {
          "type": "boolean",
        },
        "entry_id": Object {
          "type": "string",
        },
        "flow_id": Object {
          "type": "string",
        },
        "options": Object {
          "additionalProperties": true,
          "description": "Fields to set (options, a discovery's form).",
          "type": "object",
        },
      },
      "required": Array [
        "action",
      ],
      "type": "object",
    },
    "name": "ha_manage_integration",
    "title": "Manage integrations",
  },
  "title": "Manage integrations",
}
`
