/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_update_entities > ha_update_entities 1`] = `
Object {
  "category": "registry",
  "everyday": false,
  "kind": "manage",
  "listing": Object {
    "description": "Settings of one or many entities, one confirmation and undo; null resets name, icon, area (to the device's); labels: +x adds, -x removes; a rename reports what uses the old id.",
    "inputSchema": Object {
      "properties": Object {
        "aliases": Object {
          "items": Object {
            "type": "string",
          },
          "type": "array",
        },
        "area_id": Object {
          "nullable": true,
          "type": "string",
        },
        "confirm_token": Object {
          "type": "string",
        },
        "disabled": Object {
          "type": "boolean",
        },
        "dry_run": Object {
          "type": "boolean",
        },
        "entity_ids": Object {
          "description": "Up to 500.",
          "items": Object {
            "type": "string",
          },
          "type": "array",
        },
        "exposed": Object {
          "description": "To Assist.",
          "type": "boolean",
        },
        "hidden": Object {
          "type": "boolean",
        },
        "icon": Object {
          "nullable": true,
          "type": "string",
        },
        "labels": Object {
          "items": Object {
            "type": "string",
          },
          "type": "array",
        },
        "name": Object {
          "nullable": true,
          "type": "string",
        },
        "new_entity_id": Object {
          "description": "Rename (one entity).",
          "type": "string",
        },
      },
      "required": Array [
        "entity_ids",
      ],
      "type": "object",
    },
    "name": "ha_update_entities",
    "title": "Update entities",
  },
  "title": "Update entities",
}
`
