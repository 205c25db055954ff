/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_get_self_test > ha_get_self_test 1`] = `
Object {
  "category": "system",
  "everyday": false,
  "kind": "read",
  "listing": Object {
    "annotations": Object {
      "readOnlyHint": true,
    },
    "description": "Probes WebSocket, REST, live map and Supervisor, timed; works while Home Assistant is down.",
    "inputSchema": Object {
      "properties": Object {},
      "type": "object",
    },
    "name": "ha_get_self_test",
    "title": "Self test",
  },
  "title": "Self test",
}
`
