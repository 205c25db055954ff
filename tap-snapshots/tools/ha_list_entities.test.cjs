/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_list_entities > ha_list_entities 1`] = `
Object {
  "category": "entities",
  "everyday": true,
  "kind": "read",
  "listing": Object {
    "annotations": Object {
      "readOnlyHint": true,
    },
    "description": "Entities matching every given filter, paged; no filter gives counts by domain and area.",
    "inputSchema": Object {
      "properties": Object {
        "area": Object {
          "description": "Area id or name.",
          "type": "string",
        },
        "domain": Object {
          "type": "string",
        },
        "floor": Object {
          "description": "Floor id or name.",
          "type": "string",
        },
        "label": Object {
          "description": "Label id or name.",
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
        "search": Object {
          "description": "Words that must all match.",
          "type": "string",
        },
        "state": Object {
          "description": "Exact state, e.g. unavailable.",
          "type": "string",
        },
      },
      "type": "object",
    },
    "name": "ha_list_entities",
    "title": "List entities",
  },
  "title": "List entities",
}
`
