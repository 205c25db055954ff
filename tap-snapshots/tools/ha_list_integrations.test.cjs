/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_list_integrations > ha_list_integrations 1`] = `
Object {
  "category": "integrations",
  "everyday": false,
  "kind": "read",
  "listing": Object {
    "annotations": Object {
      "readOnlyHint": true,
    },
    "description": "Config entries: state, setup error, disabled, options, device and entity counts; discovered and ignored ones.",
    "inputSchema": Object {
      "properties": Object {
        "domain": Object {
          "type": "string",
        },
        "include_discovered": Object {
          "description": "Add discovered and ignored.",
          "type": "boolean",
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
        "query": Object {
          "description": "Words of the title.",
          "type": "string",
        },
        "state": Object {
          "description": "failing: setup error or retry.",
          "enum": Array [
            "loaded",
            "failing",
            "disabled",
            "not_loaded",
          ],
          "type": "string",
        },
      },
      "type": "object",
    },
    "name": "ha_list_integrations",
    "title": "List integrations",
  },
  "title": "List integrations",
}
`
