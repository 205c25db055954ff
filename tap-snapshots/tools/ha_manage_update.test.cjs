/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_manage_update > ha_manage_update 1`] = `
Object {
  "category": "system",
  "everyday": false,
  "kind": "manage",
  "listing": Object {
    "description": "Install (confirmed, optional backup), skip or un-skip an update; a later call reports install progress.",
    "inputSchema": Object {
      "properties": Object {
        "action": Object {
          "enum": Array [
            "install",
            "skip",
            "clear_skipped",
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
        "entity_id": Object {
          "type": "string",
        },
        "version": Object {
          "type": "string",
        },
      },
      "required": Array [
        "action",
        "entity_id",
      ],
      "type": "object",
    },
    "name": "ha_manage_update",
    "title": "Install or skip an update",
  },
  "title": "Install or skip an update",
}
`
