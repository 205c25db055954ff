/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_manage_repair > ha_manage_repair 1`] = `
Object {
  "category": "system",
  "everyday": false,
  "kind": "manage",
  "listing": Object {
    "description": "Ignore or unignore a repair issue (ha_get_health lists them).",
    "inputSchema": Object {
      "properties": Object {
        "action": Object {
          "enum": Array [
            "ignore",
            "unignore",
          ],
          "type": "string",
        },
        "domain": Object {
          "type": "string",
        },
        "dry_run": Object {
          "type": "boolean",
        },
        "issue_id": Object {
          "type": "string",
        },
      },
      "required": Array [
        "action",
        "domain",
        "issue_id",
      ],
      "type": "object",
    },
    "name": "ha_manage_repair",
    "title": "Ignore a repair",
  },
  "title": "Ignore a repair",
}
`
