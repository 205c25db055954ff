/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_get_automation_trace > ha_get_automation_trace 1`] = `
Object {
  "category": "automations",
  "everyday": true,
  "kind": "read",
  "listing": Object {
    "annotations": Object {
      "readOnlyHint": true,
    },
    "description": "Recent runs, or one run's steps (variables left out).",
    "inputSchema": Object {
      "properties": Object {
        "entity_id": Object {
          "description": "automation.* or script.* id.",
          "type": "string",
        },
        "run_id": Object {
          "description": "One run, from the runs list.",
          "type": "string",
        },
      },
      "required": Array [
        "entity_id",
      ],
      "type": "object",
    },
    "name": "ha_get_automation_trace",
    "title": "Get automation or script traces",
  },
  "title": "Get automation or script traces",
}
`
