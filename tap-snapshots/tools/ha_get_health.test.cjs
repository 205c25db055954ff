/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_get_health > ha_get_health 1`] = `
Object {
  "category": "system",
  "everyday": true,
  "kind": "read",
  "listing": Object {
    "annotations": Object {
      "readOnlyHint": true,
    },
    "description": "Repairs, unavailable entities, low batteries, stale automations, entities without area.",
    "inputSchema": Object {
      "properties": Object {
        "battery_threshold": Object {
          "default": 20,
          "description": "Low battery below this %.",
          "maximum": 99,
          "minimum": 1,
          "type": "integer",
        },
        "stale_days": Object {
          "default": 30,
          "description": "Idle days that make an automation stale.",
          "maximum": 365,
          "minimum": 1,
          "type": "integer",
        },
      },
      "type": "object",
    },
    "name": "ha_get_health",
    "title": "Get home health",
  },
  "title": "Get home health",
}
`
