/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > a snapshot of each definition, one file per tool > ha_manage_config > ha_manage_config 1`] = `
Object {
  "category": "config",
  "everyday": false,
  "kind": "manage",
  "listing": Object {
    "description": "Edit scenes, events, dashboard views/cards (paths: ha_list_dashboards), energy settings; make backups.",
    "inputSchema": Object {
      "properties": Object {
        "action": Object {
          "description": "move: dashboards; read: energy.",
          "enum": Array [
            "create",
            "update",
            "move",
            "delete",
            "read",
          ],
          "type": "string",
        },
        "config": Object {
          "additionalProperties": true,
          "description": "Scene {name,entities,icon}; event {summary,dtstart,dtend,description,location,rrule,recurrence_id,recurrence_range}; card/view; backup {name,addons,folders,homeassistant}.",
          "type": "object",
        },
        "confirm_token": Object {
          "type": "string",
        },
        "dry_run": Object {
          "type": "boolean",
        },
        "id": Object {
          "description": "scene.*, calendar.*, dashboard url_path.",
          "type": "string",
        },
        "item": Object {
          "description": "Event uid; dashboard path (create: view/section, none: new view).",
          "type": "string",
        },
        "kind": Object {
          "enum": Array [
            "scene",
            "calendar",
            "dashboard",
            "backup",
            "energy",
          ],
          "type": "string",
        },
        "to": Object {
          "description": "Move to path.",
          "type": "string",
        },
      },
      "required": Array [
        "kind",
        "action",
      ],
      "type": "object",
    },
    "name": "ha_manage_config",
    "title": "Scenes, events, dashboards, backups, energy",
  },
  "title": "Scenes, events, dashboards, backups, energy",
}
`
