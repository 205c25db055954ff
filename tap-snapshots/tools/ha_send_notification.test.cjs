/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_send_notification > ha_send_notification 1`] = `
Object {
  "category": "notify",
  "everyday": true,
  "kind": "write",
  "listing": Object {
    "annotations": Object {
      "destructiveHint": false,
    },
    "description": "Send a notification, 6/min per target; no target lists targets.",
    "inputSchema": Object {
      "properties": Object {
        "confirm_token": Object {
          "type": "string",
        },
        "data": Object {
          "additionalProperties": true,
          "description": "Platform data (notify services).",
          "type": "object",
        },
        "dry_run": Object {
          "type": "boolean",
        },
        "message": Object {
          "description": "Max 1000 chars.",
          "type": "string",
        },
        "target": Object {
          "description": "notify.* entity or notify service.",
          "type": "string",
        },
        "title": Object {
          "type": "string",
        },
      },
      "type": "object",
    },
    "name": "ha_send_notification",
    "title": "Send a notification",
  },
  "title": "Send a notification",
}
`
