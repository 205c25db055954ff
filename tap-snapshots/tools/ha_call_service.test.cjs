/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_call_service > ha_call_service 1`] = `
Object {
  "category": "services",
  "everyday": true,
  "kind": "write",
  "listing": Object {
    "description": "Call any service, e.g. light.turn_on; sensitive domains ask for a confirm_token.",
    "inputSchema": Object {
      "properties": Object {
        "confirm_token": Object {
          "type": "string",
        },
        "data": Object {
          "additionalProperties": true,
          "description": "e.g. {\\"brightness_pct\\":50}",
          "type": "object",
        },
        "domain": Object {
          "type": "string",
        },
        "dry_run": Object {
          "type": "boolean",
        },
        "return_response": Object {
          "type": "boolean",
        },
        "service": Object {
          "type": "string",
        },
        "target": Object {
          "properties": Object {
            "area_id": Object {
              "items": Object {
                "type": "string",
              },
              "type": "array",
            },
            "device_id": Object {
              "items": Object {
                "type": "string",
              },
              "type": "array",
            },
            "entity_id": Object {
              "items": Object {
                "type": "string",
              },
              "type": "array",
            },
            "floor_id": Object {
              "items": Object {
                "type": "string",
              },
              "type": "array",
            },
            "label_id": Object {
              "items": Object {
                "type": "string",
              },
              "type": "array",
            },
          },
          "type": "object",
        },
      },
      "required": Array [
        "domain",
        "service",
      ],
      "type": "object",
    },
    "name": "ha_call_service",
    "title": "Call a service",
  },
  "title": "Call a service",
}
`
