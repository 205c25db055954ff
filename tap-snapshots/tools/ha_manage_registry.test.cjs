/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_manage_registry > ha_manage_registry 1`] = `
Object {
  "category": "registry",
  "everyday": false,
  "kind": "manage",
  "listing": Object {
    "description": "Create, update (by id) or delete (by id) an area (floor_id), floor (level), label (color), category (scope, e.g. script) or zone (radius in m, passive); a delete says what uses it.",
    "inputSchema": Object {
      "properties": Object {
        "action": Object {
          "enum": Array [
            "create",
            "update",
            "delete",
          ],
          "type": "string",
        },
        "aliases": Object {
          "items": Object {
            "type": "string",
          },
          "type": "array",
        },
        "color": Object {
          "description": "e.g. red",
          "nullable": true,
          "type": "string",
        },
        "confirm_token": Object {
          "type": "string",
        },
        "dry_run": Object {
          "type": "boolean",
        },
        "floor_id": Object {
          "nullable": true,
          "type": "string",
        },
        "icon": Object {
          "nullable": true,
          "type": "string",
        },
        "id": Object {
          "type": "string",
        },
        "kind": Object {
          "enum": Array [
            "area",
            "floor",
            "label",
            "category",
            "zone",
          ],
          "type": "string",
        },
        "latitude": Object {
          "anyOf": Array [
            Object {
              "type": "number",
            },
            Object {
              "type": "integer",
            },
          ],
          "maximum": 90,
          "minimum": -90,
        },
        "level": Object {
          "maximum": 200,
          "minimum": -100,
          "nullable": true,
          "type": "integer",
        },
        "longitude": Object {
          "anyOf": Array [
            Object {
              "type": "number",
            },
            Object {
              "type": "integer",
            },
          ],
          "maximum": 180,
          "minimum": -180,
        },
        "name": Object {
          "type": "string",
        },
        "passive": Object {
          "type": "boolean",
        },
        "radius": Object {
          "minimum": 1,
          "type": "integer",
        },
        "scope": Object {
          "type": "string",
        },
      },
      "required": Array [
        "kind",
        "action",
      ],
      "type": "object",
    },
    "name": "ha_manage_registry",
    "title": "Manage registries",
  },
  "title": "Manage registries",
}
`
