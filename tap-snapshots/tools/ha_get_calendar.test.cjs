/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_get_calendar > ha_get_calendar 1`] = `
Object {
  "category": "calendar",
  "everyday": true,
  "kind": "read",
  "listing": Object {
    "annotations": Object {
      "readOnlyHint": true,
    },
    "description": "Events in a window, max 100; no entity_id: all calendars merged.",
    "inputSchema": Object {
      "properties": Object {
        "entity_id": Object {
          "type": "string",
        },
        "hours": Object {
          "default": 24,
          "maximum": 720,
          "minimum": 1,
          "type": "integer",
        },
        "start": Object {
          "description": "ISO start (default now).",
          "type": "string",
        },
      },
      "type": "object",
    },
    "name": "ha_get_calendar",
    "title": "Get calendar events",
  },
  "title": "Get calendar events",
}
`
