/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_get_entity > ha_get_entity 1`] = `
Object {
  "category": "entities",
  "everyday": true,
  "kind": "read",
  "listing": Object {
    "annotations": Object {
      "readOnlyHint": true,
    },
    "description": "State, attributes, area, floor, labels, aliases, device, category, hidden.",
    "inputSchema": Object {
      "properties": Object {
        "entity_id": Object {
          "type": "string",
        },
      },
      "required": Array [
        "entity_id",
      ],
      "type": "object",
    },
    "name": "ha_get_entity",
    "title": "Get entity",
  },
  "title": "Get entity",
}
`
