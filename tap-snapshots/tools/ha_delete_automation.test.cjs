/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_delete_automation > ha_delete_automation 1`] = `
Object {
  "category": "automations",
  "everyday": false,
  "kind": "manage",
  "listing": Object {
    "description": "UI automations only; the user confirms its YAML, returned as deleted_yaml for undo.",
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
      },
      "required": Array [
        "entity_id",
      ],
      "type": "object",
    },
    "name": "ha_delete_automation",
    "title": "Delete automation",
  },
  "title": "Delete automation",
}
`
