/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_snapshot_scene > ha_snapshot_scene 1`] = `
Object {
  "category": "scenes",
  "everyday": false,
  "kind": "write",
  "listing": Object {
    "annotations": Object {
      "destructiveHint": false,
    },
    "description": "Save entities' current states as scene.<name> until the next restart.",
    "inputSchema": Object {
      "properties": Object {
        "confirm_token": Object {
          "type": "string",
        },
        "dry_run": Object {
          "type": "boolean",
        },
        "entities": Object {
          "items": Object {
            "type": "string",
          },
          "maxItems": 50,
          "minItems": 1,
          "type": "array",
        },
        "name": Object {
          "type": "string",
        },
      },
      "required": Array [
        "name",
        "entities",
      ],
      "type": "object",
    },
    "name": "ha_snapshot_scene",
    "title": "Snapshot a scene",
  },
  "title": "Snapshot a scene",
}
`
