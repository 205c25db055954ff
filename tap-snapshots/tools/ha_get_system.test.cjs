/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_get_system > ha_get_system 1`] = `
Object {
  "category": "system",
  "everyday": false,
  "kind": "read",
  "listing": Object {
    "annotations": Object {
      "readOnlyHint": true,
    },
    "description": "One section of system info; error_log is newest first.",
    "inputSchema": Object {
      "properties": Object {
        "section": Object {
          "enum": Array [
            "config",
            "error_log",
            "updates",
            "backups",
            "mounts",
          ],
          "type": "string",
        },
      },
      "required": Array [
        "section",
      ],
      "type": "object",
    },
    "name": "ha_get_system",
    "title": "Get system information",
  },
  "title": "Get system information",
}
`
