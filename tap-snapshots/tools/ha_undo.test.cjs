/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_undo > ha_undo 1`] = `
Object {
  "category": "services",
  "everyday": true,
  "kind": "write",
  "listing": Object {
    "description": "Revert your last write: states a service call changed, or a scene, event, dashboard or registry edit.",
    "inputSchema": Object {
      "properties": Object {
        "confirm_token": Object {
          "type": "string",
        },
        "dry_run": Object {
          "type": "boolean",
        },
      },
      "type": "object",
    },
    "name": "ha_undo",
    "title": "Undo the last write",
  },
  "title": "Undo the last write",
}
`
