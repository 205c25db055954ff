/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_get_addons > ha_get_addons 1`] = `
Object {
  "category": "system",
  "everyday": false,
  "kind": "read",
  "listing": Object {
    "annotations": Object {
      "readOnlyHint": true,
    },
    "description": "Installed add-ons: version, state, update; slug gives one (never its options).",
    "inputSchema": Object {
      "properties": Object {
        "slug": Object {
          "description": "e.g. core_mosquitto",
          "type": "string",
        },
      },
      "type": "object",
    },
    "name": "ha_get_addons",
    "title": "Get add-ons",
  },
  "title": "Get add-ons",
}
`
