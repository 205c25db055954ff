/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_list_services > ha_list_services 1`] = `
Object {
  "category": "services",
  "everyday": true,
  "kind": "read",
  "listing": Object {
    "annotations": Object {
      "readOnlyHint": true,
    },
    "description": "No args: domains with counts; domain: its services and fields; search: matches across domains (30 max).",
    "inputSchema": Object {
      "properties": Object {
        "domain": Object {
          "type": "string",
        },
        "search": Object {
          "description": "Words in ids, names or descriptions.",
          "type": "string",
        },
      },
      "type": "object",
    },
    "name": "ha_list_services",
    "title": "List services",
  },
  "title": "List services",
}
`
