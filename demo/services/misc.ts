import { expandEvents } from '../calendar.ts'
import { HaError } from '../errors.ts'
import type { TodoItem } from '../generate/home-types.ts'
import { hashUnit, isoTime } from '../util.ts'
import { field, svc, type ServiceCall, type ServiceDef, type ServiceTable } from './registry.ts'

type PerEntity = NonNullable<ServiceDef['perEntity']>

function forecast (call: ServiceCall, entityId: string): unknown {
  const type = String(call.data.type ?? '')
  if (!['daily', 'hourly', 'twice_daily'].includes(type)) throw new HaError('invalid_format', `value must be one of ['daily', 'hourly', 'twice_daily'] for dictionary value @ data['type']. Got ${JSON.stringify(call.data.type ?? null)}`)
  const step = type === 'hourly' ? 3_600_000 : type === 'daily' ? 86_400_000 : 43_200_000
  const count = type === 'hourly' ? 24 : type === 'daily' ? 7 : 14
  const conditions = ['sunny', 'partlycloudy', 'cloudy', 'rainy', 'partlycloudy', 'clear-night']
  const start = Math.floor(Date.now() / step) * step + step
  const items = Array.from({ length: count }, (_, i) => {
    const r = hashUnit(call.house.home.seed, entityId, type, i)
    return {
      condition: conditions[Math.floor(r * conditions.length)] as string,
      datetime: isoTime(start + i * step).replace(/\.\d{6}/, ''),
      temperature: Math.round((12 + 6 * r) * 10) / 10,
      ...(type === 'hourly' ? {} : { templow: Math.round((6 + 4 * r) * 10) / 10 }),
      precipitation: Math.round(r * 30) / 10,
      precipitation_probability: Math.round(r * 80),
      humidity: 60 + Math.round(r * 30),
      wind_speed: Math.round(10 + r * 20),
      wind_bearing: Math.round(r * 360)
    }
  })
  return { forecast: items }
}

function todoList (call: ServiceCall, entityId: string): TodoItem[] {
  let list = call.house.home.todos.get(entityId)
  if (list === undefined) call.house.home.todos.set(entityId, (list = []))
  return list
}

function refreshTodo (call: ServiceCall, entityId: string): void {
  const open = todoList(call, entityId).filter(item => item.status === 'needs_action').length
  call.house.updateState(entityId, { state: String(open) }, call.context)
}

function findItem (call: ServiceCall, entityId: string, key: unknown): TodoItem {
  const item = todoList(call, entityId).find(i => i.uid === key || i.summary === key)
  if (item === undefined) throw new HaError('service_validation_error', `Validation error: Unable to find To-do item: ${String(key)}`, { key: 'item_not_found', domain: 'todo', placeholders: { item: String(key) } })
  return item
}

const todoSvc = (name: string, description: string, perEntity: PerEntity, fields: Record<string, unknown> = {}, response?: 'only'): ServiceDef =>
  svc(name, description, fields, { targetDomains: ['todo'], perEntity, ...(response === undefined ? {} : { response }) })

let todoCounter = 0

export function miscServices (): ServiceTable {
  return {
    weather: {
      get_forecasts: svc('Get forecasts', 'Get weather forecasts.', { type: field('Forecast type', { select: { options: ['daily', 'hourly', 'twice_daily'] } }, { required: true }) }, { targetDomains: ['weather'], response: 'only', perEntity: forecast })
    },
    todo: {
      add_item: todoSvc('Add to-do list item', 'Adds a new to-do list item.', (call, id) => {
        todoList(call, id).push({ uid: `item-${Date.now()}-${++todoCounter}`, summary: String(call.data.item), status: 'needs_action', ...(typeof call.data.due_date === 'string' ? { due: call.data.due_date } : {}), ...(typeof call.data.description === 'string' ? { description: call.data.description } : {}) })
        refreshTodo(call, id)
      }, { item: field('Item name', { text: {} }, { required: true }), due_date: field('Due date', { date: {} }), description: field('Description', { text: {} }) }),
      update_item: todoSvc('Update to-do list item', 'Updates an existing to-do list item.', (call, id) => {
        const item = findItem(call, id, call.data.item)
        if (typeof call.data.rename === 'string') item.summary = call.data.rename
        if (call.data.status === 'completed' || call.data.status === 'needs_action') item.status = call.data.status
        refreshTodo(call, id)
      }, { item: field('Item name', { text: {} }, { required: true }), rename: field('Rename item', { text: {} }), status: field('Set status', { select: { options: ['needs_action', 'completed'] } }) }),
      remove_item: todoSvc('Remove to-do list items', 'Removes existing to-do list items.', (call, id) => {
        const list = todoList(call, id)
        for (const key of Array.isArray(call.data.item) ? call.data.item : [call.data.item]) list.splice(list.indexOf(findItem(call, id, key)), 1)
        refreshTodo(call, id)
      }, { item: field('Item names', { text: { multiple: true } }, { required: true }) }),
      remove_completed_items: todoSvc('Remove all completed to-do list items', 'Removes all completed items.', (call, id) => {
        const list = todoList(call, id)
        for (let i = list.length - 1; i >= 0; i--) if (list[i]?.status === 'completed') list.splice(i, 1)
        refreshTodo(call, id)
      }),
      get_items: todoSvc('Get to-do list items', 'Gets items on a to-do list.', (call, id) => {
        const wanted = Array.isArray(call.data.status) ? call.data.status : ['needs_action', 'completed']
        return { items: todoList(call, id).filter(item => wanted.includes(item.status)).map(item => ({ ...item })) }
      }, { status: field('Status', { select: { multiple: true, options: ['needs_action', 'completed'] } }) }, 'only')
    },
    calendar: {
      get_events: svc('Get events', 'Get events on a calendar within a time range.', { start_date_time: field('Start time', { datetime: {} }), end_date_time: field('End time', { datetime: {} }), duration: field('Duration', { duration: {} }) }, {
        targetDomains: ['calendar'],
        response: 'only',
        perEntity: (call, id) => {
          const start = Date.parse(String(call.data.start_date_time ?? new Date().toISOString()))
          const end = call.data.end_date_time === undefined ? start + 86_400_000 : Date.parse(String(call.data.end_date_time))
          const events = expandEvents(call.house.home.calendars.get(id) ?? [], start, end)
          return { events: events.map(e => ({ start: e.start, end: e.end, summary: e.summary, ...(e.description === undefined ? {} : { description: e.description }), ...(e.location === undefined ? {} : { location: e.location }) })) }
        }
      }),
      create_event: svc('Create event', 'Adds a new calendar event.', { summary: field('Summary', { text: {} }, { required: true }) }, {
        targetDomains: ['calendar'],
        perEntity: (call, id) => {
          const list = call.house.home.calendars.get(id) ?? []
          const start = String(call.data.start_date_time ?? call.data.start_date ?? '')
          const end = String(call.data.end_date_time ?? call.data.end_date ?? '')
          list.push({ uid: `evt-${Date.now()}`, summary: String(call.data.summary), start, end, all_day: call.data.start_date !== undefined })
          call.house.home.calendars.set(id, list)
        }
      })
    },
    notify: {
      send_message: svc('Send a notification message', 'Sends a notification message.', { message: field('Message', { text: {} }, { required: true }), title: field('Title', { text: {} }) }, {
        targetDomains: ['notify'],
        perEntity: (call, id) => { call.house.setState(id, isoTime(Date.now()), call.house.states.get(id)?.attributes, call.context) }
      }),
      notify: svc('Send a notification with notify', 'Sends a notification message using the notify service.', { message: field('Message', { text: {} }, { required: true }) }),
      mobile_app_alice_phone: svc('Send a notification via mobile_app_alice_phone', 'Sends a notification message using the mobile_app_alice_phone integration.', { message: field('Message', { text: {} }, { required: true }), title: field('Title', { text: {} }), data: field('Data', { object: {} }) }),
      mobile_app_bob_phone: svc('Send a notification via mobile_app_bob_phone', 'Sends a notification message using the mobile_app_bob_phone integration.', { message: field('Message', { text: {} }, { required: true }), title: field('Title', { text: {} }), data: field('Data', { object: {} }) })
    },
    persistent_notification: {
      create: svc('Create', 'Shows a notification on the notifications panel.', { message: field('Message', { text: {} }, { required: true }), title: field('Title', { text: {} }), notification_id: field('Notification ID', { text: {} }) }),
      dismiss: svc('Dismiss', 'Deletes a notification from the notifications panel.', { notification_id: field('Notification ID', { text: {} }, { required: true }) })
    },
    tts: {
      speak: svc('Speak', 'Speaks something using text-to-speech on a media player.', { media_player_entity_id: field('Media player', { entity: { domain: 'media_player' } }, { required: true }), message: field('Message', { text: {} }, { required: true }), cache: field('Cache', { boolean: {} }) }, {
        targetDomains: ['tts'],
        perEntity: (call, id) => {
          call.house.setState(id, isoTime(Date.now()), call.house.states.get(id)?.attributes, call.context)
          for (const player of Array.isArray(call.data.media_player_entity_id) ? call.data.media_player_entity_id : [call.data.media_player_entity_id]) {
            if (typeof player === 'string' && call.house.states.has(player)) call.house.updateState(player, { state: 'playing', attributes: { media_content_type: 'music', media_title: String(call.data.message) } }, call.context)
          }
        }
      }),
      clear_cache: svc('Clear TTS cache', 'Removes all cached text-to-speech files.', {})
    },
    assist_satellite: {
      announce: svc('Announce', 'Lets a satellite announce a message.', { message: field('Message', { text: {} }), media_id: field('Media ID', { text: {} }), preannounce: field('Preannounce', { boolean: {} }) }, {
        targetDomains: ['assist_satellite'],
        perEntity: (call, id) => {
          call.house.updateState(id, { state: 'responding' }, call.context)
          call.house.updateState(id, { state: 'idle' }, call.context)
        }
      }),
      start_conversation: svc('Start conversation', 'Starts a conversation from a satellite.', { start_message: field('Message', { text: {} }) }, {
        targetDomains: ['assist_satellite'],
        perEntity: (call, id) => { call.house.updateState(id, { state: 'listening' }, call.context) }
      })
    }
  }
}
