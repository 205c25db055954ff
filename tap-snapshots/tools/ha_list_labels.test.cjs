/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_list_labels > ha_list_labels 1`] = `
Object {
  "category": "entities",
  "everyday": false,
  "kind": "read",
  "listing": Object {
    "annotations": Object {
      "readOnlyHint": true,
    },
    "description": "Labels with description and entity count.",
    "inputSchema": Object {
      "properties": Object {},
      "type": "object",
    },
    "name": "ha_list_labels",
    "title": "List labels",
  },
  "title": "List labels",
}
`
