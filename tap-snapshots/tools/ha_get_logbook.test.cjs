/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_get_logbook > ha_get_logbook 1`] = `
Object {
  "category": "history",
  "everyday": true,
  "kind": "read",
  "listing": Object {
    "annotations": Object {
      "readOnlyHint": true,
    },
    "description": "Logbook (changes, automation runs, who did it) of an entity, area, floor or home; the newest, paged.",
    "inputSchema": Object {
      "properties": Object {
        "area": Object {
          "description": "Area id or name (first 60 entities).",
          "type": "string",
        },
        "end": Object {
          "description": "ISO end (default now).",
          "type": "string",
        },
        "entity_id": Object {
          "type": "string",
        },
        "floor": Object {
          "description": "Floor id or name (first 60 entities).",
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
          "maximum": 168,
          "minimum": 0.25,
        },
        "start": Object {
          "description": "ISO start, instead of hours.",
          "type": "string",
        },
      },
      "type": "object",
    },
    "name": "ha_get_logbook",
    "title": "Get logbook",
  },
  "title": "Get logbook",
}
`
