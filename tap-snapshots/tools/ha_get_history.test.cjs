/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_get_history > ha_get_history 1`] = `
Object {
  "category": "history",
  "everyday": true,
  "kind": "read",
  "listing": Object {
    "annotations": Object {
      "readOnlyHint": true,
    },
    "description": "State changes with a summary; first point = state at window start; 250 points shared, downsampled.",
    "inputSchema": Object {
      "properties": Object {
        "end": Object {
          "description": "ISO end (default now).",
          "type": "string",
        },
        "entity_id": Object {
          "items": Object {
            "type": "string",
          },
          "maxItems": 5,
          "minItems": 1,
          "type": "array",
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
          "maximum": 168,
          "minimum": 0.25,
        },
        "start": Object {
          "description": "ISO start, instead of hours.",
          "type": "string",
        },
      },
      "required": Array [
        "entity_id",
      ],
      "type": "object",
    },
    "name": "ha_get_history",
    "title": "Get state history",
  },
  "title": "Get state history",
}
`
