/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_announce > ha_announce 1`] = `
Object {
  "category": "notify",
  "everyday": true,
  "kind": "write",
  "listing": Object {
    "annotations": Object {
      "destructiveHint": false,
    },
    "description": "TTS on an assist satellite or media player, 3/min per target; no target: lists targets.",
    "inputSchema": Object {
      "properties": Object {
        "confirm_token": Object {
          "type": "string",
        },
        "dry_run": Object {
          "type": "boolean",
        },
        "engine": Object {
          "description": "tts.* engine for media players.",
          "type": "string",
        },
        "message": Object {
          "description": "Max 500 chars.",
          "type": "string",
        },
        "target": Object {
          "description": "assist_satellite.* or media_player.* id.",
          "type": "string",
        },
      },
      "type": "object",
    },
    "name": "ha_announce",
    "title": "Announce a message",
  },
  "title": "Announce a message",
}
`
