/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_get_forecast > ha_get_forecast 1`] = `
Object {
  "category": "environment",
  "everyday": true,
  "kind": "read",
  "listing": Object {
    "annotations": Object {
      "readOnlyHint": true,
    },
    "description": "48 hourly or 14 daily points; no entity_id: the only weather entity, else a list.",
    "inputSchema": Object {
      "properties": Object {
        "entity_id": Object {
          "type": "string",
        },
        "type": Object {
          "default": "daily",
          "enum": Array [
            "daily",
            "hourly",
            "twice_daily",
          ],
          "type": "string",
        },
      },
      "type": "object",
    },
    "name": "ha_get_forecast",
    "title": "Get weather forecast",
  },
  "title": "Get weather forecast",
}
`
