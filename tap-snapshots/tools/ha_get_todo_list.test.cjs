/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_get_todo_list > ha_get_todo_list 1`] = `
Object {
  "category": "calendar",
  "everyday": true,
  "kind": "read",
  "listing": Object {
    "annotations": Object {
      "readOnlyHint": true,
    },
    "description": "Items of a to-do list (max 100); no entity_id: the lists with open counts.",
    "inputSchema": Object {
      "properties": Object {
        "entity_id": Object {
          "type": "string",
        },
        "status": Object {
          "enum": Array [
            "needs_action",
            "completed",
          ],
          "type": "string",
        },
      },
      "type": "object",
    },
    "name": "ha_get_todo_list",
    "title": "Get to-do list",
  },
  "title": "Get to-do list",
}
`
