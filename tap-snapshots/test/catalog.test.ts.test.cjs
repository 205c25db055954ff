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
      "readOnlyHint": false,
    },
    "description": "Append a card to a view of a storage-mode dashboard; the user confirms a diff first.",
    "inputSchema": Object {
      "properties": Object {
        "card": Object {
          "additionalProperties": Object {},
          "description": "Card config, e.g. {\\"type\\":\\"tile\\",\\"entity\\":\\"light.kitchen\\"}.",
          "propertyNames": Object {
            "type": "string",
          },
          "type": "object",
        },
        "confirm_token": Object {
          "description": "From confirmation_required, once the user agreed.",
          "maxLength": 100,
          "type": "string",
        },
        "dashboard": Object {
          "default": "lovelace",
          "description": "Dashboard url_path; lovelace is the default dashboard.",
          "maxLength": 100,
          "type": "string",
        },
        "dry_run": Object {
          "default": false,
          "description": "Check and show the call; change nothing.",
          "type": "boolean",
        },
        "view": Object {
          "anyOf": Array [
            Object {
              "minimum": 0,
              "type": "integer",
            },
            Object {
              "maxLength": 100,
              "type": "string",
            },
          ],
          "default": 0,
          "description": "View index, path or title.",
        },
      },
      "required": Array [
        "card",
      ],
      "type": "object",
    },
    "name": "ha_add_dashboard_card",
    "title": "Add dashboard card",
  },
  Object {
    "annotations": Object {
      "destructiveHint": false,
      "openWorldHint": false,
      "readOnlyHint": false,
    },
    "description": "Speak on an assist satellite or media player (TTS), 3/min per target. Without target, lists targets.",
    "inputSchema": Object {
      "properties": Object {
        "confirm_token": Object {
          "description": "From confirmation_required, once the user agreed.",
          "maxLength": 100,
          "type": "string",
        },
        "dry_run": Object {
          "default": false,
          "description": "Check and show the call; change nothing.",
          "type": "boolean",
        },
        "engine": Object {
          "description": "tts.* engine for media players.",
          "type": "string",
        },
        "message": Object {
          "description": "Text to speak (500 chars max).",
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
  Object {
    "annotations": Object {
      "openWorldHint": true,
      "readOnlyHint": false,
    },
    "description": "Call any service, e.g. light.turn_on. Policy-checked and audited; sensitive domains answer with a confirm_token.",
    "inputSchema": Object {
      "properties": Object {
        "confirm_token": Object {
          "description": "From confirmation_required, once the user agreed.",
          "maxLength": 100,
          "type": "string",
        },
        "data": Object {
          "additionalProperties": Object {},
          "description": "Service data, e.g. {\\"brightness_pct\\":50}.",
          "propertyNames": Object {
            "type": "string",
          },
          "type": "object",
        },
        "domain": Object {
          "description": "e.g. light",
          "type": "string",
        },
        "dry_run": Object {
          "default": false,
          "description": "Check and show the call; change nothing.",
          "type": "boolean",
        },
        "return_response": Object {
          "default": false,
          "description": "Return the service's response data.",
          "type": "boolean",
        },
        "service": Object {
          "description": "e.g. turn_on",
          "type": "string",
        },
        "target": Object {
          "description": "What to act on.",
          "properties": Object {
            "area_id": Object {
              "anyOf": Array [
                Object {
                  "type": "string",
                },
                Object {
                  "items": Object {
                    "type": "string",
                  },
                  "maxItems": 100,
                  "type": "array",
                },
              ],
              "description": "Area id(s).",
            },
            "device_id": Object {
              "anyOf": Array [
                Object {
                  "type": "string",
                },
                Object {
                  "items": Object {
                    "type": "string",
                  },
                  "maxItems": 100,
                  "type": "array",
                },
              ],
              "description": "Device id(s).",
            },
            "entity_id": Object {
              "anyOf": Array [
                Object {
                  "type": "string",
                },
                Object {
                  "items": Object {
                    "type": "string",
                  },
                  "maxItems": 100,
                  "type": "array",
                },
              ],
              "description": "Entity id(s).",
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
    "title": "Call a service",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": false,
    },
    "description": "Create an automation (HA YAML schema as JSON). Validated by Home Assistant, then the user confirms its YAML.",
    "inputSchema": Object {
      "properties": Object {
        "actions": Object {
          "description": "Actions.",
          "items": Object {},
          "minItems": 1,
          "type": "array",
        },
        "alias": Object {
          "description": "Name shown in Home Assistant.",
          "maxLength": 200,
          "type": "string",
        },
        "conditions": Object {
          "description": "Conditions.",
          "items": Object {},
          "type": "array",
        },
        "confirm_token": Object {
          "description": "From confirmation_required, once the user agreed.",
          "maxLength": 100,
          "type": "string",
        },
        "description": Object {
          "description": "Description.",
          "type": "string",
        },
        "dry_run": Object {
          "default": false,
          "description": "Check and show the call; change nothing.",
          "type": "boolean",
        },
        "max_exceeded": Object {
          "description": "Log level when runs exceed max, e.g. silent.",
          "type": "string",
        },
        "mode": Object {
          "default": "single",
          "description": "Run mode (default single).",
          "enum": Array [
            "single",
            "restart",
            "queued",
            "parallel",
          ],
          "type": "string",
        },
        "triggers": Object {
          "description": "Triggers.",
          "items": Object {},
          "minItems": 1,
          "type": "array",
        },
        "variables": Object {
          "additionalProperties": Object {},
          "description": "Variables.",
          "propertyNames": Object {
            "type": "string",
          },
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
    "title": "Create automation",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": false,
    },
    "description": "Create an automation or script from a blueprint (ha_list_blueprints); inputs are checked, then the user confirms its YAML.",
    "inputSchema": Object {
      "properties": Object {
        "alias": Object {
          "description": "Name shown in Home Assistant.",
          "maxLength": 200,
          "type": "string",
        },
        "blueprint_path": Object {
          "description": "Blueprint path, e.g. homeassistant/motion_light.yaml.",
          "maxLength": 255,
          "type": "string",
        },
        "confirm_token": Object {
          "description": "From confirmation_required, once the user agreed.",
          "maxLength": 100,
          "type": "string",
        },
        "description": Object {
          "description": "Description.",
          "type": "string",
        },
        "domain": Object {
          "default": "automation",
          "description": "Blueprint domain.",
          "enum": Array [
            "automation",
            "script",
          ],
          "type": "string",
        },
        "dry_run": Object {
          "default": false,
          "description": "Check and show the call; change nothing.",
          "type": "boolean",
        },
        "inputs": Object {
          "additionalProperties": Object {},
          "default": Object {},
          "description": "Inputs by name.",
          "propertyNames": Object {
            "type": "string",
          },
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
    "title": "Create from blueprint",
  },
  Object {
    "annotations": Object {
      "destructiveHint": false,
      "openWorldHint": false,
      "readOnlyHint": false,
    },
    "description": "Create a UI helper.",
    "inputSchema": Object {
      "properties": Object {
        "confirm_token": Object {
          "description": "From confirmation_required, once the user agreed.",
          "maxLength": 100,
          "type": "string",
        },
        "dry_run": Object {
          "default": false,
          "description": "Check and show the call; change nothing.",
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
          "description": "Name.",
          "maxLength": 100,
          "type": "string",
        },
        "options": Object {
          "additionalProperties": Object {},
          "description": "Type options, e.g. {\\"min\\":0,\\"max\\":9}.",
          "propertyNames": Object {
            "type": "string",
          },
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
    "title": "Create a helper",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": false,
    },
    "description": "Create script.<slug of alias> (HA YAML schema as JSON). Validated by Home Assistant, then the user confirms its YAML.",
    "inputSchema": Object {
      "properties": Object {
        "alias": Object {
          "description": "Name shown in Home Assistant.",
          "maxLength": 200,
          "type": "string",
        },
        "confirm_token": Object {
          "description": "From confirmation_required, once the user agreed.",
          "maxLength": 100,
          "type": "string",
        },
        "description": Object {
          "description": "Description.",
          "type": "string",
        },
        "dry_run": Object {
          "default": false,
          "description": "Check and show the call; change nothing.",
          "type": "boolean",
        },
        "max_exceeded": Object {
          "description": "Log level when runs exceed max, e.g. silent.",
          "type": "string",
        },
        "mode": Object {
          "default": "single",
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
          "items": Object {},
          "minItems": 1,
          "type": "array",
        },
        "variables": Object {
          "additionalProperties": Object {},
          "description": "Variables.",
          "propertyNames": Object {
            "type": "string",
          },
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
    "title": "Create script",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": false,
    },
    "description": "Delete a UI automation. The user confirms the full YAML first; the answer returns it as deleted_yaml for undo.",
    "inputSchema": Object {
      "properties": Object {
        "confirm_token": Object {
          "description": "From confirmation_required, once the user agreed.",
          "maxLength": 100,
          "type": "string",
        },
        "dry_run": Object {
          "default": false,
          "description": "Check and show the call; change nothing.",
          "type": "boolean",
        },
        "entity_id": Object {
          "description": "Automation entity id, e.g. light.kitchen.",
          "maxLength": 255,
          "type": "string",
        },
      },
      "required": Array [
        "entity_id",
      ],
      "type": "object",
    },
    "name": "ha_delete_automation",
    "title": "Delete automation",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": false,
    },
    "description": "Delete a UI-created helper.",
    "inputSchema": Object {
      "properties": Object {
        "confirm_token": Object {
          "description": "From confirmation_required, once the user agreed.",
          "maxLength": 100,
          "type": "string",
        },
        "dry_run": Object {
          "default": false,
          "description": "Check and show the call; change nothing.",
          "type": "boolean",
        },
        "entity_id": Object {
          "description": "Helper entity id, e.g. light.kitchen.",
          "maxLength": 255,
          "type": "string",
        },
      },
      "required": Array [
        "entity_id",
      ],
      "type": "object",
    },
    "name": "ha_delete_helper",
    "title": "Delete a helper",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": false,
    },
    "description": "Delete a UI script. The user confirms the full YAML first; the answer returns it as deleted_yaml for undo.",
    "inputSchema": Object {
      "properties": Object {
        "confirm_token": Object {
          "description": "From confirmation_required, once the user agreed.",
          "maxLength": 100,
          "type": "string",
        },
        "dry_run": Object {
          "default": false,
          "description": "Check and show the call; change nothing.",
          "type": "boolean",
        },
        "entity_id": Object {
          "description": "Script entity id, e.g. light.kitchen.",
          "maxLength": 255,
          "type": "string",
        },
      },
      "required": Array [
        "entity_id",
      ],
      "type": "object",
    },
    "name": "ha_delete_script",
    "title": "Delete script",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "Why did an entity change? Follows the context chain (4 hops) to a person, automation, script, schedule, entity or integration.",
    "inputSchema": Object {
      "properties": Object {
        "at": Object {
          "description": "ISO 8601 time of the change (default: last change).",
          "maxLength": 40,
          "type": "string",
        },
        "entity_id": Object {
          "description": "Entity id, e.g. light.kitchen.",
          "maxLength": 255,
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
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "Installed add-ons with version, state and updates; slug gives one add-on (never its options).",
    "inputSchema": Object {
      "properties": Object {
        "slug": Object {
          "description": "Add-on slug, e.g. core_mosquitto.",
          "maxLength": 64,
          "type": "string",
        },
      },
      "type": "object",
    },
    "name": "ha_get_addons",
    "title": "Get add-ons",
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
          "description": "Automation id, e.g. automation.wake_up, e.g. light.kitchen.",
          "maxLength": 255,
          "type": "string",
        },
      },
      "required": Array [
        "entity_id",
      ],
      "type": "object",
    },
    "name": "ha_get_automation",
    "title": "Get automation",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "Recent runs of an automation or script, or one run's steps with run_id. Variables are left out.",
    "inputSchema": Object {
      "properties": Object {
        "entity_id": Object {
          "description": "Automation or script id, e.g. light.kitchen.",
          "maxLength": 255,
          "type": "string",
        },
        "run_id": Object {
          "description": "Run to detail, from the runs list.",
          "maxLength": 100,
          "type": "string",
        },
      },
      "required": Array [
        "entity_id",
      ],
      "type": "object",
    },
    "name": "ha_get_automation_trace",
    "title": "Get automation or script traces",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "Calendar events in a time window, at most 100; every calendar merged when entity_id is omitted.",
    "inputSchema": Object {
      "properties": Object {
        "entity_id": Object {
          "description": "Calendar entity; omit for all.",
          "type": "string",
        },
        "hours": Object {
          "default": 24,
          "description": "Window length in hours.",
          "maximum": 720,
          "minimum": 1,
          "type": "number",
        },
        "start": Object {
          "description": "ISO start (default now).",
          "type": "string",
        },
      },
      "type": "object",
    },
    "name": "ha_get_calendar",
    "title": "Get calendar events",
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
    "title": "Get camera snapshot",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "Energy dashboard totals (grid, solar, battery, gas, water, top 10 devices) for the last day, week or month.",
    "inputSchema": Object {
      "properties": Object {
        "compare": Object {
          "default": false,
          "description": "Add the previous period and the % change.",
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
    "title": "Get energy usage",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "Full state of one entity: state, attributes (long values truncated), area, floor, labels, aliases, device, category, hidden, last changed.",
    "inputSchema": Object {
      "properties": Object {
        "entity_id": Object {
          "description": "Entity id, e.g. light.kitchen.",
          "maxLength": 255,
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
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "Weather forecast (48 hourly or 14 daily points). Without entity_id: the only weather entity, else a list.",
    "inputSchema": Object {
      "properties": Object {
        "entity_id": Object {
          "description": "Weather entity, e.g. weather.home.",
          "type": "string",
        },
        "type": Object {
          "default": "daily",
          "description": "Forecast granularity.",
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
    "title": "Get weather forecast",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "Open repairs, unavailable entities, low batteries, automations idle for stale_days, entities without area.",
    "inputSchema": Object {
      "properties": Object {
        "battery_threshold": Object {
          "default": 20,
          "description": "Low-battery percentage.",
          "maximum": 99,
          "minimum": 1,
          "type": "integer",
        },
        "stale_days": Object {
          "default": 30,
          "description": "Days without a run that make an automation stale.",
          "maximum": 365,
          "minimum": 1,
          "type": "integer",
        },
      },
      "type": "object",
    },
    "name": "ha_get_health",
    "title": "Get home health",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "State changes of up to 5 entities (first point = state at window start), 250 points shared, downsampled beyond, with a summary.",
    "inputSchema": Object {
      "properties": Object {
        "end": Object {
          "description": "ISO 8601 end (default now).",
          "type": "string",
        },
        "entity_id": Object {
          "anyOf": Array [
            Object {
              "type": "string",
            },
            Object {
              "items": Object {
                "type": "string",
              },
              "maxItems": 5,
              "minItems": 1,
              "type": "array",
            },
          ],
          "description": "Entity id, or a list of up to 5.",
        },
        "hours": Object {
          "description": "Hours back (default 24).",
          "maximum": 168,
          "minimum": 0.25,
          "type": "number",
        },
        "start": Object {
          "description": "ISO 8601 start, instead of hours.",
          "type": "string",
        },
      },
      "required": Array [
        "entity_id",
      ],
      "type": "object",
    },
    "name": "ha_get_history",
    "title": "Get state history",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "Logbook (changes, automation runs, who did it) for an entity, area, floor or the whole home; last 100 events.",
    "inputSchema": Object {
      "properties": Object {
        "area": Object {
          "description": "Area id or name (first 60 entities).",
          "type": "string",
        },
        "end": Object {
          "description": "ISO 8601 end (default now).",
          "type": "string",
        },
        "entity_id": Object {
          "description": "One entity.",
          "maxLength": 255,
          "type": "string",
        },
        "floor": Object {
          "description": "Floor id or name (first 60 entities).",
          "type": "string",
        },
        "hours": Object {
          "description": "Hours back (default 24).",
          "maximum": 168,
          "minimum": 0.25,
          "type": "number",
        },
        "start": Object {
          "description": "ISO 8601 start, instead of hours.",
          "type": "string",
        },
      },
      "type": "object",
    },
    "name": "ha_get_logbook",
    "title": "Get logbook",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "People and trackers as zone names (never coordinates), zone occupancy, and recent zone changes.",
    "inputSchema": Object {
      "properties": Object {
        "hours": Object {
          "default": 24,
          "description": "Hours of zone changes.",
          "maximum": 168,
          "minimum": 1,
          "type": "number",
        },
      },
      "type": "object",
    },
    "name": "ha_get_presence",
    "title": "Get presence",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "Checks the links to Home Assistant (WebSocket, REST, live map, Supervisor) with timings; works while it is down.",
    "inputSchema": Object {
      "properties": Object {},
      "type": "object",
    },
    "name": "ha_get_self_test",
    "title": "Self test",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "Long-term statistics (mean/min/max or sum/change) of up to 10 sensors over up to a year. Prefer it to history for long windows.",
    "inputSchema": Object {
      "properties": Object {
        "end": Object {
          "description": "ISO 8601 end (default now).",
          "type": "string",
        },
        "hours": Object {
          "description": "Hours back (default 24).",
          "maximum": 8760,
          "minimum": 1,
          "type": "number",
        },
        "period": Object {
          "default": "hour",
          "description": "Bucket size; coarsened if the window needs too many rows.",
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
          "description": "ISO 8601 start, instead of hours.",
          "type": "string",
        },
        "statistic_id": Object {
          "anyOf": Array [
            Object {
              "type": "string",
            },
            Object {
              "items": Object {
                "type": "string",
              },
              "maxItems": 10,
              "minItems": 1,
              "type": "array",
            },
          ],
          "description": "Statistic id (usually the sensor's entity id), or up to 10.",
        },
      },
      "required": Array [
        "statistic_id",
      ],
      "type": "object",
    },
    "name": "ha_get_statistics",
    "title": "Get long-term statistics",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "System info by section: config, error_log (newest first), updates, backups, mounts.",
    "inputSchema": Object {
      "properties": Object {
        "section": Object {
          "description": "Section to read.",
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
    "title": "Get system information",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "Items of a to-do list (max 100); without entity_id, the lists with open counts.",
    "inputSchema": Object {
      "properties": Object {
        "entity_id": Object {
          "description": "To-do list entity, e.g. todo.shopping_list.",
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
    "title": "Get to-do list",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "Every area with its floor, aliases and number of entities.",
    "inputSchema": Object {
      "properties": Object {},
      "type": "object",
    },
    "name": "ha_list_areas",
    "title": "List areas",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "Automations: enabled, last_triggered, source ui/yaml; paged. include_config adds UI configs (max 10 per page).",
    "inputSchema": Object {
      "properties": Object {
        "include_config": Object {
          "default": false,
          "description": "Attach UI configs.",
          "type": "boolean",
        },
        "limit": Object {
          "description": "Page size (default 100; 5 with include_config, max 10).",
          "maximum": 200,
          "minimum": 1,
          "type": "integer",
        },
        "offset": Object {
          "default": 0,
          "description": "Items to skip: next_offset of the previous page.",
          "minimum": 0,
          "type": "integer",
        },
      },
      "type": "object",
    },
    "name": "ha_list_automations",
    "title": "List automations",
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
          "description": "Blueprint domain.",
          "enum": Array [
            "automation",
            "script",
          ],
          "type": "string",
        },
        "limit": Object {
          "default": 20,
          "description": "Max items to return.",
          "maximum": 50,
          "minimum": 1,
          "type": "integer",
        },
        "offset": Object {
          "default": 0,
          "description": "Items to skip: next_offset of the previous page.",
          "minimum": 0,
          "type": "integer",
        },
      },
      "type": "object",
    },
    "name": "ha_list_blueprints",
    "title": "List blueprints",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "Dashboards with mode (storage/yaml) and view count; with dashboard, its views.",
    "inputSchema": Object {
      "properties": Object {
        "dashboard": Object {
          "description": "url_path (lovelace = default).",
          "maxLength": 100,
          "type": "string",
        },
      },
      "type": "object",
    },
    "name": "ha_list_dashboards",
    "title": "List dashboards",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "Enabled devices with manufacturer, model, area (child devices show their parent's) and number of entities, paged; optionally in one area.",
    "inputSchema": Object {
      "properties": Object {
        "area": Object {
          "description": "Area id or name.",
          "type": "string",
        },
        "limit": Object {
          "default": 50,
          "description": "Max items to return.",
          "maximum": 200,
          "minimum": 1,
          "type": "integer",
        },
        "offset": Object {
          "default": 0,
          "description": "Items to skip: next_offset of the previous page.",
          "minimum": 0,
          "type": "integer",
        },
      },
      "type": "object",
    },
    "name": "ha_list_devices",
    "title": "List devices",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "List entities filtered by domain, area, floor, label, words or exact state, paged. With no filter, returns counts by domain and area instead of a dump.",
    "inputSchema": Object {
      "properties": Object {
        "area": Object {
          "description": "Area id or name.",
          "type": "string",
        },
        "domain": Object {
          "description": "Domain such as light, sensor, switch.",
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
          "description": "Max items to return.",
          "maximum": 200,
          "minimum": 1,
          "type": "integer",
        },
        "offset": Object {
          "default": 0,
          "description": "Items to skip: next_offset of the previous page.",
          "minimum": 0,
          "type": "integer",
        },
        "search": Object {
          "description": "Words that must all match (like ha_search_entities).",
          "maxLength": 200,
          "type": "string",
        },
        "state": Object {
          "description": "Exact state, e.g. on, off, unavailable.",
          "type": "string",
        },
      },
      "type": "object",
    },
    "name": "ha_list_entities",
    "title": "List entities",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "Every floor with its level, its areas and number of entities.",
    "inputSchema": Object {
      "properties": Object {},
      "type": "object",
    },
    "name": "ha_list_floors",
    "title": "List floors",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "Every label with its description and number of entities carrying it.",
    "inputSchema": Object {
      "properties": Object {},
      "type": "object",
    },
    "name": "ha_list_labels",
    "title": "List labels",
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
          "description": "Max items to return.",
          "maximum": 200,
          "minimum": 1,
          "type": "integer",
        },
        "offset": Object {
          "default": 0,
          "description": "Items to skip: next_offset of the previous page.",
          "minimum": 0,
          "type": "integer",
        },
      },
      "type": "object",
    },
    "name": "ha_list_scripts",
    "title": "List scripts",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "Service actions: no args gives domains with counts; domain, its services and fields; search, matches across domains (30 max).",
    "inputSchema": Object {
      "properties": Object {
        "domain": Object {
          "description": "Domain, e.g. light.",
          "type": "string",
        },
        "search": Object {
          "description": "Words in service ids, names or descriptions.",
          "maxLength": 100,
          "type": "string",
        },
      },
      "type": "object",
    },
    "name": "ha_list_services",
    "title": "List services",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": false,
    },
    "description": "Add, complete, uncomplete, remove or rename a to-do item.",
    "inputSchema": Object {
      "properties": Object {
        "action": Object {
          "description": "Action.",
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
          "description": "From confirmation_required, once the user agreed.",
          "maxLength": 100,
          "type": "string",
        },
        "dry_run": Object {
          "default": false,
          "description": "Check and show the call; change nothing.",
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
    "title": "Manage a to-do list",
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
          "description": "Jinja template text.",
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
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": false,
    },
    "description": "Start a script with optional variables.",
    "inputSchema": Object {
      "properties": Object {
        "confirm_token": Object {
          "description": "From confirmation_required, once the user agreed.",
          "maxLength": 100,
          "type": "string",
        },
        "dry_run": Object {
          "default": false,
          "description": "Check and show the call; change nothing.",
          "type": "boolean",
        },
        "entity_id": Object {
          "description": "script.* entity id.",
          "type": "string",
        },
        "variables": Object {
          "additionalProperties": Object {},
          "description": "Script variables.",
          "propertyNames": Object {
            "type": "string",
          },
          "type": "object",
        },
      },
      "required": Array [
        "entity_id",
      ],
      "type": "object",
    },
    "name": "ha_run_script",
    "title": "Run a script",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": true,
    },
    "description": "Find entities by words in their id, name, aliases, area, floor or labels (any language, accents ignored). Every word must match. Start here.",
    "inputSchema": Object {
      "properties": Object {
        "limit": Object {
          "default": 20,
          "description": "Max items to return.",
          "maximum": 50,
          "minimum": 1,
          "type": "integer",
        },
        "query": Object {
          "description": "Words to look for, e.g. \\"kitchen light\\" or \\"étage temperature\\".",
          "maxLength": 200,
          "type": "string",
        },
      },
      "required": Array [
        "query",
      ],
      "type": "object",
    },
    "name": "ha_search_entities",
    "title": "Search entities",
  },
  Object {
    "annotations": Object {
      "destructiveHint": false,
      "openWorldHint": false,
      "readOnlyHint": false,
    },
    "description": "Send a notification, 6/min per target. Without target, lists targets.",
    "inputSchema": Object {
      "properties": Object {
        "confirm_token": Object {
          "description": "From confirmation_required, once the user agreed.",
          "maxLength": 100,
          "type": "string",
        },
        "data": Object {
          "additionalProperties": Object {},
          "description": "Platform data (notify services).",
          "propertyNames": Object {
            "type": "string",
          },
          "type": "object",
        },
        "dry_run": Object {
          "default": false,
          "description": "Check and show the call; change nothing.",
          "type": "boolean",
        },
        "message": Object {
          "description": "Text (1000 chars max).",
          "type": "string",
        },
        "target": Object {
          "description": "notify.* entity or notify service.",
          "type": "string",
        },
        "title": Object {
          "description": "Title.",
          "type": "string",
        },
      },
      "type": "object",
    },
    "name": "ha_send_notification",
    "title": "Send a notification",
  },
  Object {
    "annotations": Object {
      "destructiveHint": false,
      "idempotentHint": true,
      "openWorldHint": false,
      "readOnlyHint": false,
    },
    "description": "Enable or disable an automation.",
    "inputSchema": Object {
      "properties": Object {
        "confirm_token": Object {
          "description": "From confirmation_required, once the user agreed.",
          "maxLength": 100,
          "type": "string",
        },
        "dry_run": Object {
          "default": false,
          "description": "Check and show the call; change nothing.",
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
    "title": "Enable or disable an automation",
  },
  Object {
    "annotations": Object {
      "destructiveHint": false,
      "openWorldHint": false,
      "readOnlyHint": false,
    },
    "description": "Save entities' current states as scene.<name> until the next restart.",
    "inputSchema": Object {
      "properties": Object {
        "confirm_token": Object {
          "description": "From confirmation_required, once the user agreed.",
          "maxLength": 100,
          "type": "string",
        },
        "dry_run": Object {
          "default": false,
          "description": "Check and show the call; change nothing.",
          "type": "boolean",
        },
        "entities": Object {
          "description": "Entity ids (1-50).",
          "items": Object {
            "type": "string",
          },
          "maxItems": 50,
          "minItems": 1,
          "type": "array",
        },
        "name": Object {
          "description": "Scene name.",
          "maxLength": 100,
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
    "title": "Snapshot a scene",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": false,
    },
    "description": "Run an automation's actions now.",
    "inputSchema": Object {
      "properties": Object {
        "confirm_token": Object {
          "description": "From confirmation_required, once the user agreed.",
          "maxLength": 100,
          "type": "string",
        },
        "dry_run": Object {
          "default": false,
          "description": "Check and show the call; change nothing.",
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
          "additionalProperties": Object {},
          "description": "Variables for the run.",
          "propertyNames": Object {
            "type": "string",
          },
          "type": "object",
        },
      },
      "required": Array [
        "entity_id",
      ],
      "type": "object",
    },
    "name": "ha_trigger_automation",
    "title": "Trigger an automation",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": false,
    },
    "description": "Restore what your last service call changed (on/off, brightness, colour, position, temperature, values).",
    "inputSchema": Object {
      "properties": Object {
        "confirm_token": Object {
          "description": "From confirmation_required, once the user agreed.",
          "maxLength": 100,
          "type": "string",
        },
        "dry_run": Object {
          "default": false,
          "description": "Check and show the call; change nothing.",
          "type": "boolean",
        },
      },
      "type": "object",
    },
    "name": "ha_undo",
    "title": "Undo the last write",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": false,
    },
    "description": "Edit a UI automation: each given field replaces the stored one, null removes it. Validated by Home Assistant; the user confirms a diff.",
    "inputSchema": Object {
      "properties": Object {
        "actions": Object {
          "description": "Actions.",
          "items": Object {},
          "minItems": 1,
          "type": "array",
        },
        "alias": Object {
          "description": "Name shown in Home Assistant.",
          "maxLength": 200,
          "type": "string",
        },
        "conditions": Object {
          "description": "Conditions.",
          "items": Object {},
          "type": "array",
        },
        "confirm_token": Object {
          "description": "From confirmation_required, once the user agreed.",
          "maxLength": 100,
          "type": "string",
        },
        "description": Object {
          "description": "Description.",
          "type": Array [
            "string",
            "null",
          ],
        },
        "dry_run": Object {
          "default": false,
          "description": "Check and show the call; change nothing.",
          "type": "boolean",
        },
        "entity_id": Object {
          "description": "Automation entity id, e.g. light.kitchen.",
          "maxLength": 255,
          "type": "string",
        },
        "initial_state": Object {
          "description": "Enabled at startup.",
          "type": Array [
            "boolean",
            "null",
          ],
        },
        "inputs": Object {
          "additionalProperties": Object {},
          "description": "Blueprint inputs to set (null removes one).",
          "propertyNames": Object {
            "type": "string",
          },
          "type": "object",
        },
        "max_exceeded": Object {
          "anyOf": Array [
            Object {
              "type": "string",
            },
            Object {
              "type": "null",
            },
          ],
          "description": "Log level when runs exceed max, e.g. silent.",
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
          "anyOf": Array [
            Object {
              "properties": Object {
                "stored_traces": Object {
                  "description": "1-100.",
                  "maximum": 100,
                  "minimum": 1,
                  "type": "integer",
                },
              },
              "required": Array [
                "stored_traces",
              ],
              "type": "object",
            },
            Object {
              "type": "null",
            },
          ],
          "description": "Trace settings.",
        },
        "triggers": Object {
          "description": "Triggers.",
          "items": Object {},
          "minItems": 1,
          "type": "array",
        },
        "variables": Object {
          "anyOf": Array [
            Object {
              "additionalProperties": Object {},
              "propertyNames": Object {
                "type": "string",
              },
              "type": "object",
            },
            Object {
              "type": "null",
            },
          ],
          "description": "Variables.",
        },
      },
      "required": Array [
        "entity_id",
      ],
      "type": "object",
    },
    "name": "ha_update_automation",
    "title": "Update automation",
  },
  Object {
    "annotations": Object {
      "openWorldHint": false,
      "readOnlyHint": false,
    },
    "description": "Edit a UI script: each given field replaces the stored one, null removes it. Validated by Home Assistant; the user confirms a diff.",
    "inputSchema": Object {
      "properties": Object {
        "alias": Object {
          "description": "Name shown in Home Assistant.",
          "maxLength": 200,
          "type": "string",
        },
        "confirm_token": Object {
          "description": "From confirmation_required, once the user agreed.",
          "maxLength": 100,
          "type": "string",
        },
        "description": Object {
          "description": "Description.",
          "type": Array [
            "string",
            "null",
          ],
        },
        "dry_run": Object {
          "default": false,
          "description": "Check and show the call; change nothing.",
          "type": "boolean",
        },
        "entity_id": Object {
          "description": "Script entity id, e.g. light.kitchen.",
          "maxLength": 255,
          "type": "string",
        },
        "inputs": Object {
          "additionalProperties": Object {},
          "description": "Blueprint inputs to set (null removes one).",
          "propertyNames": Object {
            "type": "string",
          },
          "type": "object",
        },
        "max_exceeded": Object {
          "anyOf": Array [
            Object {
              "type": "string",
            },
            Object {
              "type": "null",
            },
          ],
          "description": "Log level when runs exceed max, e.g. silent.",
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
          "items": Object {},
          "minItems": 1,
          "type": "array",
        },
        "trace": Object {
          "anyOf": Array [
            Object {
              "properties": Object {
                "stored_traces": Object {
                  "description": "1-100.",
                  "maximum": 100,
                  "minimum": 1,
                  "type": "integer",
                },
              },
              "required": Array [
                "stored_traces",
              ],
              "type": "object",
            },
            Object {
              "type": "null",
            },
          ],
          "description": "Trace settings.",
        },
        "variables": Object {
          "anyOf": Array [
            Object {
              "additionalProperties": Object {},
              "propertyNames": Object {
                "type": "string",
              },
              "type": "object",
            },
            Object {
              "type": "null",
            },
          ],
          "description": "Variables.",
        },
      },
      "required": Array [
        "entity_id",
      ],
      "type": "object",
    },
    "name": "ha_update_script",
    "title": "Update script",
  },
]
`
