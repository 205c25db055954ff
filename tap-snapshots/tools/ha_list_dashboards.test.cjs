/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_list_dashboards > ha_list_dashboards 1`] = `
Object {
  "category": "dashboards",
  "everyday": false,
  "kind": "read",
  "listing": Object {
    "annotations": Object {
      "readOnlyHint": true,
    },
    "description": "Dashboards (built-in too), mode, views, default; dashboard: its views, card paths.",
    "inputSchema": Object {
      "properties": Object {
        "dashboard": Object {
          "description": "url_path (lovelace = Overview).",
          "type": "string",
        },
      },
      "type": "object",
    },
    "name": "ha_list_dashboards",
    "title": "List dashboards",
  },
  "title": "List dashboards",
}
`
