/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_explain_event > ha_explain_event 1`] = `
Object {
  "category": "history",
  "everyday": true,
  "kind": "read",
  "listing": Object {
    "annotations": Object {
      "readOnlyHint": true,
    },
    "description": "Who or what caused a state change: person, automation, script, schedule, entity or integration.",
    "inputSchema": Object {
      "properties": Object {
        "at": Object {
          "description": "ISO time of the change (default the last one).",
          "type": "string",
        },
        "entity_id": Object {
          "type": "string",
        },
      },
      "required": Array [
        "entity_id",
      ],
      "type": "object",
    },
    "name": "ha_explain_event",
    "title": "Explain a state change",
  },
  "title": "Explain a state change",
}
`
