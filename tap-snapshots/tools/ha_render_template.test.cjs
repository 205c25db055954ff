/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_render_template > ha_render_template 1`] = `
Object {
  "category": "camera",
  "everyday": false,
  "kind": "read",
  "listing": Object {
    "annotations": Object {
      "readOnlyHint": true,
    },
    "description": "Jinja, rendered by Home Assistant; output cut at 5000 characters.",
    "inputSchema": Object {
      "properties": Object {
        "template": Object {
          "maxLength": 5000,
          "type": "string",
        },
      },
      "required": Array [
        "template",
      ],
      "type": "object",
    },
    "name": "ha_render_template",
    "title": "Render template",
  },
  "title": "Render template",
}
`
