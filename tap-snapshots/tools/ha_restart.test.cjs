/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_restart > ha_restart 1`] = `
Object {
  "category": "system",
  "everyday": false,
  "kind": "manage",
  "listing": Object {
    "description": "Restart (confirmed) or reload YAML (all, one domain) or a config entry, after the config check.",
    "inputSchema": Object {
      "properties": Object {
        "action": Object {
          "description": "reload takes domain or entry_id",
          "enum": Array [
            "restart",
            "reload_all",
            "reload",
          ],
          "type": "string",
        },
        "confirm_token": Object {
          "type": "string",
        },
        "domain": Object {
          "type": "string",
        },
        "dry_run": Object {
          "type": "boolean",
        },
        "entry_id": Object {
          "description": "Config entry",
          "type": "string",
        },
      },
      "required": Array [
        "action",
      ],
      "type": "object",
    },
    "name": "ha_restart",
    "title": "Restart or reload the configuration",
  },
  "title": "Restart or reload the configuration",
}
`
