/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_delete_helper > ha_delete_helper 1`] = `
Object {
  "category": "services",
  "everyday": false,
  "kind": "write",
  "listing": Object {
    "description": "Delete a UI-created helper.",
    "inputSchema": Object {
      "properties": Object {
        "confirm_token": Object {
          "type": "string",
        },
        "dry_run": Object {
          "type": "boolean",
        },
        "entity_id": Object {
          "description": "e.g. input_boolean.guest_mode",
          "type": "string",
        },
      },
      "required": Array [
        "entity_id",
      ],
      "type": "object",
    },
    "name": "ha_delete_helper",
    "title": "Delete a helper",
  },
  "title": "Delete a helper",
}
`
