/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_get_energy > ha_get_energy 1`] = `
Object {
  "category": "environment",
  "everyday": true,
  "kind": "read",
  "listing": Object {
    "annotations": Object {
      "readOnlyHint": true,
    },
    "description": "Energy dashboard totals: grid, solar, battery, gas, water, top 10 devices.",
    "inputSchema": Object {
      "properties": Object {
        "compare": Object {
          "description": "Add the previous period and % change.",
          "type": "boolean",
        },
        "period": Object {
          "default": "day",
          "description": "Window ending now.",
          "enum": Array [
            "day",
            "week",
            "month",
          ],
          "type": "string",
        },
      },
      "type": "object",
    },
    "name": "ha_get_energy",
    "title": "Get energy usage",
  },
  "title": "Get energy usage",
}
`
