/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_update_device > ha_update_device 1`] = `
Object {
  "category": "registry",
  "everyday": false,
  "kind": "manage",
  "listing": Object {
    "description": "Change a device's name, area, labels or disabled.",
    "inputSchema": Object {
      "properties": Object {
        "area_id": Object {
          "nullable": true,
          "type": "string",
        },
        "confirm_token": Object {
          "type": "string",
        },
        "device_id": Object {
          "type": "string",
        },
        "disabled": Object {
          "type": "boolean",
        },
        "dry_run": Object {
          "type": "boolean",
        },
        "follow": Object {
          "default": true,
          "description": "Entities follow the area.",
          "type": "boolean",
        },
        "labels": Object {
          "description": "Label ids; +x adds, -x removes.",
          "items": Object {
            "type": "string",
          },
          "type": "array",
        },
        "name": Object {
          "description": "null: default.",
          "nullable": true,
          "type": "string",
        },
      },
      "required": Array [
        "device_id",
      ],
      "type": "object",
    },
    "name": "ha_update_device",
    "title": "Update a device",
  },
  "title": "Update a device",
}
`
