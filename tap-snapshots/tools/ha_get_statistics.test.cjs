/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_get_statistics > ha_get_statistics 1`] = `
Object {
  "category": "history",
  "everyday": false,
  "kind": "read",
  "listing": Object {
    "annotations": Object {
      "readOnlyHint": true,
    },
    "description": "Mean/min/max or sum/change per period, up to a year back; better than history for long windows.",
    "inputSchema": Object {
      "properties": Object {
        "end": Object {
          "description": "ISO end (default now).",
          "type": "string",
        },
        "hours": Object {
          "anyOf": Array [
            Object {
              "type": "number",
            },
            Object {
              "type": "integer",
            },
          ],
          "description": "Hours back (default 24).",
          "maximum": 8760,
          "minimum": 1,
        },
        "period": Object {
          "default": "hour",
          "description": "Bucket size; coarsened for long windows.",
          "enum": Array [
            "5minute",
            "hour",
            "day",
            "week",
            "month",
          ],
          "type": "string",
        },
        "start": Object {
          "description": "ISO start, instead of hours.",
          "type": "string",
        },
        "statistic_id": Object {
          "description": "Usually sensor entity ids.",
          "items": Object {
            "type": "string",
          },
          "maxItems": 10,
          "minItems": 1,
          "type": "array",
        },
      },
      "required": Array [
        "statistic_id",
      ],
      "type": "object",
    },
    "name": "ha_get_statistics",
    "title": "Get long-term statistics",
  },
  "title": "Get long-term statistics",
}
`
