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
    "annotations": Object {
      "openWorldHint": false,
    },
    "description": "Create, update or delete an area, floor, label, category or zone; a delete says what uses it.",
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
          "description": "Other names.",
          "items": Object {
            "type": "string",
          },
          "type": "array",
        },
        "color": Object {
          "description": "Label, e.g. red",
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
          "description": "Area.",
          "nullable": true,
          "type": "string",
        },
        "icon": Object {
          "description": "e.g. mdi:sofa",
          "nullable": true,
          "type": "string",
        },
        "id": Object {
          "description": "Update/delete.",
          "type": "string",
        },
        "kind": Object {
          "description": "Registry.",
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
          "description": "Zone.",
          "type": "boolean",
        },
        "radius": Object {
          "description": "Zone, m.",
          "minimum": 1,
          "type": "integer",
        },
        "scope": Object {
          "description": "Category, e.g. script",
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
