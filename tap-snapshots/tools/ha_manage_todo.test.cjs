/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_manage_todo > ha_manage_todo 1`] = `
Object {
  "category": "calendar",
  "everyday": true,
  "kind": "write",
  "listing": Object {
    "description": "Change one item of a to-do list.",
    "inputSchema": Object {
      "properties": Object {
        "action": Object {
          "enum": Array [
            "add",
            "complete",
            "uncomplete",
            "remove",
            "rename",
          ],
          "type": "string",
        },
        "confirm_token": Object {
          "type": "string",
        },
        "dry_run": Object {
          "type": "boolean",
        },
        "entity_id": Object {
          "type": "string",
        },
        "item": Object {
          "description": "Item text or uid.",
          "type": "string",
        },
        "new_name": Object {
          "description": "New text (rename).",
          "type": "string",
        },
      },
      "required": Array [
        "entity_id",
        "action",
        "item",
      ],
      "type": "object",
    },
    "name": "ha_manage_todo",
    "title": "Manage a to-do list",
  },
  "title": "Manage a to-do list",
}
`
