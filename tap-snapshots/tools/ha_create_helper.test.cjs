/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_create_helper > ha_create_helper 1`] = `
Object {
  "category": "services",
  "everyday": false,
  "kind": "write",
  "listing": Object {
    "annotations": Object {
      "destructiveHint": false,
    },
    "description": "Create a UI helper. Config-flow types: dry_run shows their form.",
    "inputSchema": Object {
      "properties": Object {
        "confirm_token": Object {
          "type": "string",
        },
        "dry_run": Object {
          "type": "boolean",
        },
        "helper_type": Object {
          "enum": Array [
            "input_boolean",
            "input_number",
            "input_select",
            "input_text",
            "input_datetime",
            "input_button",
            "counter",
            "timer",
            "schedule",
            "template",
            "group",
            "utility_meter",
            "derivative",
            "min_max",
            "threshold",
            "integration",
            "statistics",
            "trend",
            "random",
            "filter",
            "tod",
            "switch_as_x",
            "history_stats",
          ],
          "type": "string",
        },
        "name": Object {
          "type": "string",
        },
        "options": Object {
          "additionalProperties": true,
          "description": "Fields, e.g. {\\"min\\":0,\\"max\\":9}; \\"kind\\" picks a template, group or random kind.",
          "type": "object",
        },
      },
      "required": Array [
        "helper_type",
        "name",
      ],
      "type": "object",
    },
    "name": "ha_create_helper",
    "title": "Create a helper",
  },
  "title": "Create a helper",
}
`
