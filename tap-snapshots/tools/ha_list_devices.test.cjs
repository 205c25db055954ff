/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_list_devices > ha_list_devices 1`] = `
Object {
  "category": "entities",
  "everyday": true,
  "kind": "read",
  "listing": Object {
    "annotations": Object {
      "readOnlyHint": true,
    },
    "description": "Enabled devices: manufacturer, model, area (a child's is its parent's), entity count; paged.",
    "inputSchema": Object {
      "properties": Object {
        "area": Object {
          "description": "Area id or name.",
          "type": "string",
        },
        "limit": Object {
          "default": 50,
          "maximum": 200,
          "minimum": 1,
          "type": "integer",
        },
        "offset": Object {
          "minimum": 0,
          "type": "integer",
        },
      },
      "type": "object",
    },
    "name": "ha_list_devices",
    "title": "List devices",
  },
  "title": "List devices",
}
`
