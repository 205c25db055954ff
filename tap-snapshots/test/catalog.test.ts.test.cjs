/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/catalog.test.ts > TAP > the catalogue > snapshot of every definition as clients see it > tools/list with every option on 1`] = `
Array [
  Object {
    "annotations": Object {
      "openWorldHint": false,
    },
    "description": "Append a card to a view of a storage dashboard; the user confirms a diff.",
    "inputSchema": Object {
      "properties": Object {
        "card": Object {
          "additionalProperties": true,
          "description": "Card config, e.g. {\\"type\\":\\"tile\\",\\"entity\\":\\"light.kitchen\\"}.",
          "type": "object",
        },
        "confirm_token": Object {
          "type": "string",
        },
        "dashboard": Object {
          "default": "lovelace",
          "description": "url_path (lovelace = Overview).",
          "type": "string",
        },
        "dry_run": Object {
          "type": "boolean",
        },
        "view": Object {
          "default": 0,
          "description": "View index, path or title.",
          "minimum": 0,
          "type": "integer",
        },
      },
      "required": Array [
        "card",
      ],
      "type": "object",
    },
    "name": "ha_add_dashboard_card",
  },
  Object {
    "annotations": Object {
      "destructiveHint": false,
      "openWorldHint": false,
    },
    "description": "Speak on an assist satellite or media player (TTS), 3/min per target; no target lists targets.",
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
          "description": "Text, max 500 chars.",
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
  },
  Object {
    "annotations": Object {
      "openWorldHint": true,
    },
    "description": "Call any service, e.g. light.turn_on; policy-checked, audited; sensitive domains ask for a confirm_token.",
    "inputSchema": Object {
      "properties": Object {
        "confirm_token": Object {
          "type": "string",
        },
        "data": Object {
          "additionalProperties": true,
          "description": "Service data, e.g. {\\"brightness_pct\\":50}.",
          "type": "object",
        },
        "domain": Object {
          "description": "e.g. light",
          "type": "string",
        },
        "dry_run": Object {
          "type": "boolean",
        },
        "return_response": Object {
          "description": "Include response data.",
          "type": "boolean",
        },
        "service": Object {
          "description": "e.g. turn_on",
          "type": "string",
        },
        "target": Object {
          "description": "Entity, device, area, floor or label ids to act on.",
          "properties": Object {
            "area_id": Object {
              "items": Object {
                "type": "string",
              },
              "type": "array",
            },
            "device_id": Object {
              "items": Object {
                "type": "string",
              },
              "type": "array",
            },
            "entity_id": Object {
              "items": Object {
                "type": "string",
              },
              "type": "array",
            },
            "floor_id": Object {
              "items": Object {
                "type": "string",
              },
              "type": "array",
            },
            "label_id": Object {
              "items": Object {
                "type": "string",
              },
              "type": "array",
            },
          },
          "type": "object",
        },
      },
      "required": Array [
        "domain",
        "service",
      ],
      "type": "object",
    },
    "name": "ha_call_service",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
    },
    "description": "New automation (HA YAML schema as JSON); HA validates it, then the user confirms its YAML.",
    "inputSchema": Object {
      "properties": Object {
        "actions": Object {
          "items": Object {
            "additionalProperties": true,
            "type": "object",
          },
          "minItems": 1,
          "type": "array",
        },
        "alias": Object {
          "description": "Display name.",
          "type": "string",
        },
        "conditions": Object {
          "items": Object {
            "additionalProperties": true,
            "type": "object",
          },
          "type": "array",
        },
        "confirm_token": Object {
          "type": "string",
        },
        "description": Object {
          "type": "string",
        },
        "dry_run": Object {
          "type": "boolean",
        },
        "max_exceeded": Object {
          "description": "Log level past max runs, e.g. silent.",
          "type": "string",
        },
        "mode": Object {
          "default": "single",
          "description": "Run mode.",
          "enum": Array [
            "single",
            "restart",
            "queued",
            "parallel",
          ],
          "type": "string",
        },
        "triggers": Object {
          "items": Object {
            "additionalProperties": true,
            "type": "object",
          },
          "minItems": 1,
          "type": "array",
        },
        "variables": Object {
          "additionalProperties": true,
          "type": "object",
        },
      },
      "required": Array [
        "alias",
        "triggers",
        "actions",
      ],
      "type": "object",
    },
    "name": "ha_create_automation",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
    },
    "description": "Automation or script from a blueprint (ha_list_blueprints); inputs checked, then the user confirms its YAML.",
    "inputSchema": Object {
      "properties": Object {
        "alias": Object {
          "description": "Display name.",
          "type": "string",
        },
        "blueprint_path": Object {
          "description": "e.g. homeassistant/motion_light.yaml",
          "type": "string",
        },
        "confirm_token": Object {
          "type": "string",
        },
        "description": Object {
          "type": "string",
        },
        "domain": Object {
          "default": "automation",
          "enum": Array [
            "automation",
            "script",
          ],
          "type": "string",
        },
        "dry_run": Object {
          "type": "boolean",
        },
        "inputs": Object {
          "additionalProperties": true,
          "default": Object {},
          "description": "Inputs by name.",
          "type": "object",
        },
      },
      "required": Array [
        "blueprint_path",
        "alias",
      ],
      "type": "object",
    },
    "name": "ha_create_from_blueprint",
  },
  Object {
    "annotations": Object {
      "destructiveHint": false,
      "openWorldHint": false,
    },
    "description": "Create a UI helper.",
    "inputSchema": Object {
      "properties": Object {
        "confirm_token": Object {
          "type": "string",
        },
        "dry_run": Object {
          "type": "boolean",
        },
        "helper_type": Object {
          "description": "Type.",
          "enum": Array [
            "input_boolean",
            "input_number",
            "input_select",
            "input_text",
            "input_datetime",
            "counter",
            "timer",
          ],
          "type": "string",
        },
        "name": Object {
          "type": "string",
        },
        "options": Object {
          "additionalProperties": true,
          "description": "Type options, e.g. {\\"min\\":0,\\"max\\":9}.",
          "type": "object",
        },
      },
      "required": Array [
        "helper_type",
        "name",
      ],
      "type": "object",
    },
    "name": "ha_create_helper",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
    },
    "description": "New script.<slug of alias> (HA YAML schema as JSON); HA validates it, then the user confirms its YAML.",
    "inputSchema": Object {
      "properties": Object {
        "alias": Object {
          "description": "Display name.",
          "type": "string",
        },
        "confirm_token": Object {
          "type": "string",
        },
        "description": Object {
          "type": "string",
        },
        "dry_run": Object {
          "type": "boolean",
        },
        "max_exceeded": Object {
          "description": "Log level past max runs, e.g. silent.",
          "type": "string",
        },
        "mode": Object {
          "default": "single",
          "description": "Run mode.",
          "enum": Array [
            "single",
            "restart",
            "queued",
            "parallel",
          ],
          "type": "string",
        },
        "sequence": Object {
          "description": "Actions.",
          "items": Object {
            "additionalProperties": true,
            "type": "object",
          },
          "minItems": 1,
          "type": "array",
        },
        "variables": Object {
          "additionalProperties": true,
          "type": "object",
        },
      },
      "required": Array [
        "alias",
        "sequence",
      ],
      "type": "object",
    },
    "name": "ha_create_script",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
    },
    "description": "Delete a UI automation once the user confirms its YAML; returns it as deleted_yaml for undo.",
    "inputSchema": Object {
      "properties": Object {
        "confirm_token": Object {
          "type": "string",
        },
        "dry_run": Object {
          "type": "boolean",
        },
        "entity_id": Object {
          "description": "e.g. automation.wake_up",
          "type": "string",
        },
      },
      "required": Array [
        "entity_id",
      ],
      "type": "object",
    },
    "name": "ha_delete_automation",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
    },
    "description": "Delete a UI-created helper.",
    "inputSchema": Object {
      "properties": Object {
        "confirm_token": Object {
          "type": "string",
        },
        "dry_run": Object {
          "type": "boolean",
        },
        "entity_id": Object {
          "description": "e.g. input_boolean.guest_mode",
          "type": "string",
        },
      },
      "required": Array [
        "entity_id",
      ],
      "type": "object",
    },
    "name": "ha_delete_helper",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
    },
    "description": "Delete a UI script once the user confirms its YAML; returns it as deleted_yaml for undo.",
    "inputSchema": Object {
      "properties": Object {
        "confirm_token": Object {
          "type": "string",
        },
        "dry_run": Object {
          "type": "boolean",
        },
        "entity_id": Object {
          "description": "e.g. script.bedtime",
          "type": "string",
        },
      },
      "required": Array [
        "entity_id",
      ],
      "type": "object",
    },
    "name": "ha_delete_script",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "What caused a state change: a person, automation, script, schedule, entity or integration (4 context hops).",
    "inputSchema": Object {
      "properties": Object {
        "at": Object {
          "description": "ISO time of the change (default the last one).",
          "type": "string",
        },
        "entity_id": Object {
          "description": "Entity id, e.g. light.kitchen.",
          "type": "string",
        },
      },
      "required": Array [
        "entity_id",
      ],
      "type": "object",
    },
    "name": "ha_explain_event",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
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
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "One automation: state, last_triggered, mode, source and config.",
    "inputSchema": Object {
      "properties": Object {
        "entity_id": Object {
          "description": "e.g. automation.wake_up",
          "type": "string",
        },
      },
      "required": Array [
        "entity_id",
      ],
      "type": "object",
    },
    "name": "ha_get_automation",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "Recent runs of an automation or script, or one run's steps (variables left out).",
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
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "Calendar events in a window, max 100; all calendars merged without entity_id.",
    "inputSchema": Object {
      "properties": Object {
        "entity_id": Object {
          "description": "e.g. calendar.family",
          "type": "string",
        },
        "hours": Object {
          "default": 24,
          "description": "Window width in hours.",
          "maximum": 720,
          "minimum": 1,
          "type": "integer",
        },
        "start": Object {
          "description": "ISO start (default now).",
          "type": "string",
        },
      },
      "type": "object",
    },
    "name": "ha_get_calendar",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "Still image of a camera (max 4 MB); audited.",
    "inputSchema": Object {
      "properties": Object {
        "entity_id": Object {
          "description": "Camera entity.",
          "type": "string",
        },
      },
      "required": Array [
        "entity_id",
      ],
      "type": "object",
    },
    "name": "ha_get_camera_snapshot",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "Energy dashboard totals: grid, solar, battery, gas, water, top 10 devices.",
    "inputSchema": Object {
      "properties": Object {
        "compare": Object {
          "description": "Add the previous period and % change.",
          "type": "boolean",
        },
        "period": Object {
          "default": "day",
          "description": "Window ending now.",
          "enum": Array [
            "day",
            "week",
            "month",
          ],
          "type": "string",
        },
      },
      "type": "object",
    },
    "name": "ha_get_energy",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "One entity in full: state, attributes, area, floor, labels, aliases, device, category, hidden.",
    "inputSchema": Object {
      "properties": Object {
        "entity_id": Object {
          "description": "Entity id, e.g. light.kitchen.",
          "type": "string",
        },
      },
      "required": Array [
        "entity_id",
      ],
      "type": "object",
    },
    "name": "ha_get_entity",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "Weather forecast, 48 hourly or 14 daily points; no entity_id: the only weather entity, else a list.",
    "inputSchema": Object {
      "properties": Object {
        "entity_id": Object {
          "description": "e.g. weather.home",
          "type": "string",
        },
        "type": Object {
          "default": "daily",
          "description": "Granularity.",
          "enum": Array [
            "daily",
            "hourly",
            "twice_daily",
          ],
          "type": "string",
        },
      },
      "type": "object",
    },
    "name": "ha_get_forecast",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "Repairs, unavailable entities, low batteries, stale automations, entities without area.",
    "inputSchema": Object {
      "properties": Object {
        "battery_threshold": Object {
          "default": 20,
          "description": "Low battery below this %.",
          "maximum": 99,
          "minimum": 1,
          "type": "integer",
        },
        "stale_days": Object {
          "default": 30,
          "description": "Idle days that make an automation stale.",
          "maximum": 365,
          "minimum": 1,
          "type": "integer",
        },
      },
      "type": "object",
    },
    "name": "ha_get_health",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "State changes with a summary; first point = state at window start; 250 points shared, downsampled.",
    "inputSchema": Object {
      "properties": Object {
        "end": Object {
          "description": "ISO end (default now).",
          "type": "string",
        },
        "entity_id": Object {
          "description": "Entity ids.",
          "items": Object {
            "type": "string",
          },
          "maxItems": 5,
          "minItems": 1,
          "type": "array",
        },
        "hours": Object {
          "anyOf": Array [
            Object {
              "type": "number",
            },
            Object {
              "type": "integer",
            },
          ],
          "description": "Hours back (default 24).",
          "maximum": 168,
          "minimum": 0.25,
        },
        "start": Object {
          "description": "ISO start, instead of hours.",
          "type": "string",
        },
      },
      "required": Array [
        "entity_id",
      ],
      "type": "object",
    },
    "name": "ha_get_history",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "Logbook (changes, automation runs, who did it) of an entity, area, floor or home; the newest, paged.",
    "inputSchema": Object {
      "properties": Object {
        "area": Object {
          "description": "Area id or name (first 60 entities).",
          "type": "string",
        },
        "end": Object {
          "description": "ISO end (default now).",
          "type": "string",
        },
        "entity_id": Object {
          "description": "One entity.",
          "type": "string",
        },
        "floor": Object {
          "description": "Floor id or name (first 60 entities).",
          "type": "string",
        },
        "hours": Object {
          "anyOf": Array [
            Object {
              "type": "number",
            },
            Object {
              "type": "integer",
            },
          ],
          "description": "Hours back (default 24).",
          "maximum": 168,
          "minimum": 0.25,
        },
        "start": Object {
          "description": "ISO start, instead of hours.",
          "type": "string",
        },
      },
      "type": "object",
    },
    "name": "ha_get_logbook",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "People and trackers by zone name (never coordinates), zone occupancy, recent zone changes.",
    "inputSchema": Object {
      "properties": Object {
        "hours": Object {
          "default": 24,
          "description": "Hours of zone changes.",
          "maximum": 168,
          "minimum": 1,
          "type": "integer",
        },
      },
      "type": "object",
    },
    "name": "ha_get_presence",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "Probes WebSocket, REST, live map and Supervisor, timed; works while Home Assistant is down.",
    "inputSchema": Object {
      "properties": Object {},
      "type": "object",
    },
    "name": "ha_get_self_test",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "Long-term statistics (mean/min/max or sum/change) up to a year back; better than history for long windows.",
    "inputSchema": Object {
      "properties": Object {
        "end": Object {
          "description": "ISO end (default now).",
          "type": "string",
        },
        "hours": Object {
          "anyOf": Array [
            Object {
              "type": "number",
            },
            Object {
              "type": "integer",
            },
          ],
          "description": "Hours back (default 24).",
          "maximum": 8760,
          "minimum": 1,
        },
        "period": Object {
          "default": "hour",
          "description": "Bucket size; coarsened for long windows.",
          "enum": Array [
            "5minute",
            "hour",
            "day",
            "week",
            "month",
          ],
          "type": "string",
        },
        "start": Object {
          "description": "ISO start, instead of hours.",
          "type": "string",
        },
        "statistic_id": Object {
          "description": "Usually sensor entity ids.",
          "items": Object {
            "type": "string",
          },
          "maxItems": 10,
          "minItems": 1,
          "type": "array",
        },
      },
      "required": Array [
        "statistic_id",
      ],
      "type": "object",
    },
    "name": "ha_get_statistics",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "One section of system info; error_log is newest first.",
    "inputSchema": Object {
      "properties": Object {
        "section": Object {
          "enum": Array [
            "config",
            "error_log",
            "updates",
            "backups",
            "mounts",
          ],
          "type": "string",
        },
      },
      "required": Array [
        "section",
      ],
      "type": "object",
    },
    "name": "ha_get_system",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "Items of a to-do list (max 100); no entity_id: the lists with open counts.",
    "inputSchema": Object {
      "properties": Object {
        "entity_id": Object {
          "description": "e.g. todo.shopping_list",
          "type": "string",
        },
        "status": Object {
          "description": "Only this status.",
          "enum": Array [
            "needs_action",
            "completed",
          ],
          "type": "string",
        },
      },
      "type": "object",
    },
    "name": "ha_get_todo_list",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "Areas with floor, aliases and entity count.",
    "inputSchema": Object {
      "properties": Object {},
      "type": "object",
    },
    "name": "ha_list_areas",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "Automations: enabled, last_triggered, source ui/yaml; paged.",
    "inputSchema": Object {
      "properties": Object {
        "include_config": Object {
          "description": "Attach UI configs.",
          "type": "boolean",
        },
        "limit": Object {
          "description": "Page size (default 100; with include_config 5, max 10).",
          "maximum": 200,
          "minimum": 1,
          "type": "integer",
        },
        "offset": Object {
          "default": 0,
          "description": "From next_offset.",
          "minimum": 0,
          "type": "integer",
        },
      },
      "type": "object",
    },
    "name": "ha_list_automations",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "Installed blueprints with their inputs (required, default, selector).",
    "inputSchema": Object {
      "properties": Object {
        "domain": Object {
          "default": "automation",
          "enum": Array [
            "automation",
            "script",
          ],
          "type": "string",
        },
        "limit": Object {
          "default": 20,
          "description": "Page size.",
          "maximum": 50,
          "minimum": 1,
          "type": "integer",
        },
        "offset": Object {
          "default": 0,
          "description": "From next_offset.",
          "minimum": 0,
          "type": "integer",
        },
      },
      "type": "object",
    },
    "name": "ha_list_blueprints",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "Dashboards (built-in too), mode, views, default; dashboard: its views, card paths.",
    "inputSchema": Object {
      "properties": Object {
        "dashboard": Object {
          "description": "url_path (lovelace = Overview).",
          "type": "string",
        },
      },
      "type": "object",
    },
    "name": "ha_list_dashboards",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "Enabled devices: manufacturer, model, area (a child's is its parent's), entity count; paged.",
    "inputSchema": Object {
      "properties": Object {
        "area": Object {
          "description": "Area id or name.",
          "type": "string",
        },
        "limit": Object {
          "default": 50,
          "description": "Page size.",
          "maximum": 200,
          "minimum": 1,
          "type": "integer",
        },
        "offset": Object {
          "default": 0,
          "description": "From next_offset.",
          "minimum": 0,
          "type": "integer",
        },
      },
      "type": "object",
    },
    "name": "ha_list_devices",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "Entities matching every given filter, paged; no filter gives counts by domain and area.",
    "inputSchema": Object {
      "properties": Object {
        "area": Object {
          "description": "Area id or name.",
          "type": "string",
        },
        "domain": Object {
          "description": "e.g. light",
          "type": "string",
        },
        "floor": Object {
          "description": "Floor id or name.",
          "type": "string",
        },
        "label": Object {
          "description": "Label id or name.",
          "type": "string",
        },
        "limit": Object {
          "default": 50,
          "description": "Page size.",
          "maximum": 200,
          "minimum": 1,
          "type": "integer",
        },
        "offset": Object {
          "default": 0,
          "description": "From next_offset.",
          "minimum": 0,
          "type": "integer",
        },
        "search": Object {
          "description": "Words that must all match.",
          "type": "string",
        },
        "state": Object {
          "description": "Exact state, e.g. unavailable.",
          "type": "string",
        },
      },
      "type": "object",
    },
    "name": "ha_list_entities",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "Floors with level, areas and entity count.",
    "inputSchema": Object {
      "properties": Object {},
      "type": "object",
    },
    "name": "ha_list_floors",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "Labels with description and entity count.",
    "inputSchema": Object {
      "properties": Object {},
      "type": "object",
    },
    "name": "ha_list_labels",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "Scripts: running, mode, last_triggered; paged.",
    "inputSchema": Object {
      "properties": Object {
        "limit": Object {
          "default": 100,
          "description": "Page size.",
          "maximum": 200,
          "minimum": 1,
          "type": "integer",
        },
        "offset": Object {
          "default": 0,
          "description": "From next_offset.",
          "minimum": 0,
          "type": "integer",
        },
      },
      "type": "object",
    },
    "name": "ha_list_scripts",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "No args: domains with counts; domain: its services and fields; search: matches across domains (30 max).",
    "inputSchema": Object {
      "properties": Object {
        "domain": Object {
          "description": "e.g. light",
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
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
    },
    "description": "Edit scenes, calendar events, dashboard views/cards (paths: ha_list_dashboards); make backups.",
    "inputSchema": Object {
      "properties": Object {
        "action": Object {
          "description": "move: dashboards.",
          "enum": Array [
            "create",
            "update",
            "move",
            "delete",
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
          "description": "scene.*, calendar.*, dashboard url_path (lovelace).",
          "type": "string",
        },
        "item": Object {
          "description": "Event uid; dashboard path (create: its view/section, none: new view).",
          "type": "string",
        },
        "kind": Object {
          "enum": Array [
            "scene",
            "calendar",
            "dashboard",
            "backup",
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
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
    },
    "description": "Create, update or delete an area, floor, label, category or zone; a delete says what uses it.",
    "inputSchema": Object {
      "properties": Object {
        "action": Object {
          "enum": Array [
            "create",
            "update",
            "delete",
          ],
          "type": "string",
        },
        "aliases": Object {
          "description": "Other names.",
          "items": Object {
            "type": "string",
          },
          "type": "array",
        },
        "color": Object {
          "description": "Label, e.g. red",
          "nullable": true,
          "type": "string",
        },
        "confirm_token": Object {
          "type": "string",
        },
        "dry_run": Object {
          "type": "boolean",
        },
        "floor_id": Object {
          "description": "Area.",
          "nullable": true,
          "type": "string",
        },
        "icon": Object {
          "description": "e.g. mdi:sofa",
          "nullable": true,
          "type": "string",
        },
        "id": Object {
          "description": "Update/delete.",
          "type": "string",
        },
        "kind": Object {
          "description": "Registry.",
          "enum": Array [
            "area",
            "floor",
            "label",
            "category",
            "zone",
          ],
          "type": "string",
        },
        "latitude": Object {
          "anyOf": Array [
            Object {
              "type": "number",
            },
            Object {
              "type": "integer",
            },
          ],
          "maximum": 90,
          "minimum": -90,
        },
        "level": Object {
          "maximum": 200,
          "minimum": -100,
          "nullable": true,
          "type": "integer",
        },
        "longitude": Object {
          "anyOf": Array [
            Object {
              "type": "number",
            },
            Object {
              "type": "integer",
            },
          ],
          "maximum": 180,
          "minimum": -180,
        },
        "name": Object {
          "type": "string",
        },
        "passive": Object {
          "description": "Zone.",
          "type": "boolean",
        },
        "radius": Object {
          "description": "Zone, m.",
          "minimum": 1,
          "type": "integer",
        },
        "scope": Object {
          "description": "Category, e.g. script",
          "type": "string",
        },
      },
      "required": Array [
        "kind",
        "action",
      ],
      "type": "object",
    },
    "name": "ha_manage_registry",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
    },
    "description": "Change one item of a to-do list.",
    "inputSchema": Object {
      "properties": Object {
        "action": Object {
          "enum": Array [
            "add",
            "complete",
            "uncomplete",
            "remove",
            "rename",
          ],
          "type": "string",
        },
        "confirm_token": Object {
          "type": "string",
        },
        "dry_run": Object {
          "type": "boolean",
        },
        "entity_id": Object {
          "description": "todo.* entity id.",
          "type": "string",
        },
        "item": Object {
          "description": "Item text or uid.",
          "type": "string",
        },
        "new_name": Object {
          "description": "New text (rename).",
          "type": "string",
        },
      },
      "required": Array [
        "entity_id",
        "action",
        "item",
      ],
      "type": "object",
    },
    "name": "ha_manage_todo",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "Render a Jinja template in Home Assistant; output cut at 5000 characters.",
    "inputSchema": Object {
      "properties": Object {
        "template": Object {
          "description": "Jinja template.",
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
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
    },
    "description": "Start a script.",
    "inputSchema": Object {
      "properties": Object {
        "confirm_token": Object {
          "type": "string",
        },
        "dry_run": Object {
          "type": "boolean",
        },
        "entity_id": Object {
          "description": "script.* entity id.",
          "type": "string",
        },
        "variables": Object {
          "additionalProperties": true,
          "description": "Script variables.",
          "type": "object",
        },
      },
      "required": Array [
        "entity_id",
      ],
      "type": "object",
    },
    "name": "ha_run_script",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "Start here: entities whose id, name, aliases, area, floor or labels match every word (accents ignored).",
    "inputSchema": Object {
      "properties": Object {
        "limit": Object {
          "default": 20,
          "description": "Page size.",
          "maximum": 50,
          "minimum": 1,
          "type": "integer",
        },
        "query": Object {
          "description": "Words, e.g. \\"kitchen light\\" or \\"étage temperature\\".",
          "type": "string",
        },
      },
      "required": Array [
        "query",
      ],
      "type": "object",
    },
    "name": "ha_search_entities",
  },
  Object {
    "annotations": Object {
      "destructiveHint": false,
      "openWorldHint": false,
    },
    "description": "Send a notification, 6/min per target; no target lists targets.",
    "inputSchema": Object {
      "properties": Object {
        "confirm_token": Object {
          "type": "string",
        },
        "data": Object {
          "additionalProperties": true,
          "description": "Platform data (notify services).",
          "type": "object",
        },
        "dry_run": Object {
          "type": "boolean",
        },
        "message": Object {
          "description": "Text, max 1000 chars.",
          "type": "string",
        },
        "target": Object {
          "description": "notify.* entity or notify service.",
          "type": "string",
        },
        "title": Object {
          "type": "string",
        },
      },
      "type": "object",
    },
    "name": "ha_send_notification",
  },
  Object {
    "annotations": Object {
      "destructiveHint": false,
      "idempotentHint": true,
      "openWorldHint": false,
    },
    "description": "Enable or disable an automation.",
    "inputSchema": Object {
      "properties": Object {
        "confirm_token": Object {
          "type": "string",
        },
        "dry_run": Object {
          "type": "boolean",
        },
        "enabled": Object {
          "description": "true enables it.",
          "type": "boolean",
        },
        "entity_id": Object {
          "description": "automation.* entity id.",
          "type": "string",
        },
      },
      "required": Array [
        "entity_id",
        "enabled",
      ],
      "type": "object",
    },
    "name": "ha_set_automation",
  },
  Object {
    "annotations": Object {
      "destructiveHint": false,
      "openWorldHint": false,
    },
    "description": "Save entities' current states as scene.<name> until the next restart.",
    "inputSchema": Object {
      "properties": Object {
        "confirm_token": Object {
          "type": "string",
        },
        "dry_run": Object {
          "type": "boolean",
        },
        "entities": Object {
          "description": "Entity ids.",
          "items": Object {
            "type": "string",
          },
          "maxItems": 50,
          "minItems": 1,
          "type": "array",
        },
        "name": Object {
          "description": "Scene name.",
          "type": "string",
        },
      },
      "required": Array [
        "name",
        "entities",
      ],
      "type": "object",
    },
    "name": "ha_snapshot_scene",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
    },
    "description": "Run an automation's actions now.",
    "inputSchema": Object {
      "properties": Object {
        "confirm_token": Object {
          "type": "string",
        },
        "dry_run": Object {
          "type": "boolean",
        },
        "entity_id": Object {
          "description": "automation.* entity id.",
          "type": "string",
        },
        "skip_condition": Object {
          "default": true,
          "description": "Skip its conditions.",
          "type": "boolean",
        },
        "variables": Object {
          "additionalProperties": true,
          "description": "Run variables.",
          "type": "object",
        },
      },
      "required": Array [
        "entity_id",
      ],
      "type": "object",
    },
    "name": "ha_trigger_automation",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
    },
    "description": "Revert your last write: states a service call changed, or a scene, event, dashboard or registry edit.",
    "inputSchema": Object {
      "properties": Object {
        "confirm_token": Object {
          "type": "string",
        },
        "dry_run": Object {
          "type": "boolean",
        },
      },
      "type": "object",
    },
    "name": "ha_undo",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
    },
    "description": "Edit a UI automation: given fields replace, null removes; HA validates, the user confirms a diff.",
    "inputSchema": Object {
      "properties": Object {
        "actions": Object {
          "items": Object {
            "additionalProperties": true,
            "type": "object",
          },
          "minItems": 1,
          "type": "array",
        },
        "alias": Object {
          "description": "Display name.",
          "type": "string",
        },
        "conditions": Object {
          "items": Object {
            "additionalProperties": true,
            "type": "object",
          },
          "type": "array",
        },
        "confirm_token": Object {
          "type": "string",
        },
        "description": Object {
          "nullable": true,
          "type": "string",
        },
        "dry_run": Object {
          "type": "boolean",
        },
        "entity_id": Object {
          "description": "e.g. automation.wake_up",
          "type": "string",
        },
        "initial_state": Object {
          "description": "Enabled at startup.",
          "nullable": true,
          "type": "boolean",
        },
        "inputs": Object {
          "additionalProperties": true,
          "description": "Blueprint inputs (null removes one).",
          "type": "object",
        },
        "max_exceeded": Object {
          "description": "Log level past max runs, e.g. silent.",
          "nullable": true,
          "type": "string",
        },
        "mode": Object {
          "description": "Run mode (default single).",
          "enum": Array [
            "single",
            "restart",
            "queued",
            "parallel",
          ],
          "type": "string",
        },
        "trace": Object {
          "additionalProperties": true,
          "description": "e.g. {\\"stored_traces\\":5}, max 100.",
          "nullable": true,
          "type": "object",
        },
        "triggers": Object {
          "items": Object {
            "additionalProperties": true,
            "type": "object",
          },
          "minItems": 1,
          "type": "array",
        },
        "variables": Object {
          "additionalProperties": true,
          "nullable": true,
          "type": "object",
        },
      },
      "required": Array [
        "entity_id",
      ],
      "type": "object",
    },
    "name": "ha_update_automation",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
    },
    "description": "Change a device's name, area, labels or disabled.",
    "inputSchema": Object {
      "properties": Object {
        "area_id": Object {
          "description": "Area.",
          "nullable": true,
          "type": "string",
        },
        "confirm_token": Object {
          "type": "string",
        },
        "device_id": Object {
          "description": "From ha_list_devices.",
          "type": "string",
        },
        "disabled": Object {
          "description": "Disable.",
          "type": "boolean",
        },
        "dry_run": Object {
          "type": "boolean",
        },
        "follow": Object {
          "default": true,
          "description": "Entities follow the area.",
          "type": "boolean",
        },
        "labels": Object {
          "description": "Label ids; +x adds, -x removes.",
          "items": Object {
            "type": "string",
          },
          "type": "array",
        },
        "name": Object {
          "description": "null: default.",
          "nullable": true,
          "type": "string",
        },
      },
      "required": Array [
        "device_id",
      ],
      "type": "object",
    },
    "name": "ha_update_device",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
    },
    "description": "Settings of one or many entities, one confirmation and undo; labels: +x adds, -x removes; a rename reports what uses the old id.",
    "inputSchema": Object {
      "properties": Object {
        "aliases": Object {
          "description": "Assist names.",
          "items": Object {
            "type": "string",
          },
          "type": "array",
        },
        "area_id": Object {
          "description": "null: device's.",
          "nullable": true,
          "type": "string",
        },
        "confirm_token": Object {
          "type": "string",
        },
        "disabled": Object {
          "description": "Disable.",
          "type": "boolean",
        },
        "dry_run": Object {
          "type": "boolean",
        },
        "entity_ids": Object {
          "description": "Up to 500.",
          "items": Object {
            "type": "string",
          },
          "type": "array",
        },
        "exposed": Object {
          "description": "To Assist.",
          "type": "boolean",
        },
        "hidden": Object {
          "description": "Hide.",
          "type": "boolean",
        },
        "icon": Object {
          "description": "mdi:x",
          "nullable": true,
          "type": "string",
        },
        "labels": Object {
          "description": "Label ids.",
          "items": Object {
            "type": "string",
          },
          "type": "array",
        },
        "name": Object {
          "description": "null: default.",
          "nullable": true,
          "type": "string",
        },
        "new_entity_id": Object {
          "description": "Rename (one entity).",
          "type": "string",
        },
      },
      "required": Array [
        "entity_ids",
      ],
      "type": "object",
    },
    "name": "ha_update_entities",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
    },
    "description": "Edit a UI script: given fields replace, null removes; HA validates, the user confirms a diff.",
    "inputSchema": Object {
      "properties": Object {
        "alias": Object {
          "description": "Display name.",
          "type": "string",
        },
        "confirm_token": Object {
          "type": "string",
        },
        "description": Object {
          "nullable": true,
          "type": "string",
        },
        "dry_run": Object {
          "type": "boolean",
        },
        "entity_id": Object {
          "description": "e.g. script.bedtime",
          "type": "string",
        },
        "inputs": Object {
          "additionalProperties": true,
          "description": "Blueprint inputs (null removes one).",
          "type": "object",
        },
        "max_exceeded": Object {
          "description": "Log level past max runs, e.g. silent.",
          "nullable": true,
          "type": "string",
        },
        "mode": Object {
          "description": "Run mode (default single).",
          "enum": Array [
            "single",
            "restart",
            "queued",
            "parallel",
          ],
          "type": "string",
        },
        "sequence": Object {
          "description": "Actions.",
          "items": Object {
            "additionalProperties": true,
            "type": "object",
          },
          "minItems": 1,
          "type": "array",
        },
        "trace": Object {
          "additionalProperties": true,
          "description": "e.g. {\\"stored_traces\\":5}, max 100.",
          "nullable": true,
          "type": "object",
        },
        "variables": Object {
          "additionalProperties": true,
          "nullable": true,
          "type": "object",
        },
      },
      "required": Array [
        "entity_id",
      ],
      "type": "object",
    },
    "name": "ha_update_script",
  },
]
`
