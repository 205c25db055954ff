import { HaError } from '../errors.ts'
import { selectOption } from './devices.ts'
import { field, svc, type ServiceCall, type ServiceDef, type ServiceTable } from './registry.ts'

type PerEntity = NonNullable<ServiceDef['perEntity']>

function entitySvc (domain: string, name: string, description: string, perEntity: PerEntity, fields: Record<string, unknown> = {}): ServiceDef {
  return svc(name, description, fields, { targetDomains: [domain], perEntity })
}

function setValue (call: ServiceCall, entityId: string, value: string): void {
  call.house.updateState(entityId, { state: value }, call.context)
}

const counterStep = (sign: number): PerEntity => (call, id, state) => {
  const step = Number(state.attributes.step ?? 1)
  const next = Number(state.state) + sign * step
  const max = state.attributes.maximum
  const min = state.attributes.minimum
  if ((typeof max === 'number' && next > max) || (typeof min === 'number' && next < min)) return
  setValue(call, id, String(next))
}

function durationSeconds (value: unknown): number {
  if (typeof value === 'number') return value
  if (typeof value === 'string') {
    const parts = value.split(':').map(Number)
    return parts.reduce((sum, part) => sum * 60 + (Number.isNaN(part) ? 0 : part), 0)
  }
  return 0
}

function formatDuration (seconds: number): string {
  const h = Math.floor(seconds / 3600)
  const m = Math.floor((seconds % 3600) / 60)
  const s = Math.floor(seconds % 60)
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`
}

export function helperServices (): ServiceTable {
  return {
    input_number: {
      set_value: entitySvc('input_number', 'Set', 'Sets the value.', (call, id, state) => {
        const value = Number(call.data.value)
        const min = Number(state.attributes.min)
        const max = Number(state.attributes.max)
        if (Number.isNaN(value) || value < min || value > max) {
          throw new HaError('service_validation_error', `Validation error: Invalid value for ${id}: ${String(call.data.value)} (range ${min} - ${max})`, { key: 'invalid_value', domain: 'input_number', placeholders: { value: String(call.data.value), min: String(min), max: String(max) } })
        }
        setValue(call, id, value.toFixed(1))
      }, { value: field('Value', { number: { min: 0, max: Number.MAX_SAFE_INTEGER, step: 0.001, mode: 'box' } }, { required: true }) }),
      increment: entitySvc('input_number', 'Increment', 'Increments the value by 1 step.', (call, id, state) => setValue(call, id, Math.min(Number(state.attributes.max), Number(state.state) + Number(state.attributes.step)).toFixed(1))),
      decrement: entitySvc('input_number', 'Decrement', 'Decrements the current value by 1 step.', (call, id, state) => setValue(call, id, Math.max(Number(state.attributes.min), Number(state.state) - Number(state.attributes.step)).toFixed(1)))
    },
    input_select: {
      select_option: entitySvc('input_select', 'Select', 'Selects an option.', selectOption, { option: field('Option', { text: {} }, { required: true }) }),
      select_next: entitySvc('input_select', 'Next', 'Selects the next option.', (call, id, state) => {
        const options = state.attributes.options as string[]
        setValue(call, id, options[(options.indexOf(state.state) + 1) % options.length] as string)
      }),
      set_options: entitySvc('input_select', 'Set options', 'Sets the options.', (call, id) => { call.house.updateState(id, { attributes: { options: call.data.options } }, call.context) }, { options: field('Options', { text: { multiple: true } }, { required: true }) })
    },
    input_text: {
      set_value: entitySvc('input_text', 'Set', 'Sets the value.', (call, id, state) => {
        const value = String(call.data.value)
        if (value.length > Number(state.attributes.max ?? 100)) throw new HaError('service_validation_error', `Validation error: Invalid value for ${id}: ${value} (length range ${String(state.attributes.min)} - ${String(state.attributes.max)})`)
        setValue(call, id, value)
      }, { value: field('Value', { text: {} }, { required: true }) })
    },
    input_datetime: {
      set_datetime: entitySvc('input_datetime', 'Set', 'Sets the date and/or time.', (call, id) => {
        const time = typeof call.data.time === 'string' ? call.data.time : undefined
        const date = typeof call.data.date === 'string' ? call.data.date : undefined
        const value = date !== undefined && time !== undefined ? `${date} ${time}` : (time ?? date ?? String(call.data.datetime ?? ''))
        setValue(call, id, time !== undefined && time.length === 5 ? `${value}:00` : value)
      }, { time: field('Time', { time: {} }), date: field('Date', { date: {} }), datetime: field('Date & time', { datetime: {} }) })
    },
    input_button: { press: entitySvc('input_button', 'Press', 'Mimics the physical button press on a device.', (call, id) => setValue(call, id, new Date().toISOString())) },
    counter: {
      increment: entitySvc('counter', 'Increment', 'Increments a counter by its step size.', counterStep(1)),
      decrement: entitySvc('counter', 'Decrement', 'Decrements a counter by its step size.', counterStep(-1)),
      reset: entitySvc('counter', 'Reset', 'Resets a counter to its initial value.', (call, id, state) => setValue(call, id, String(state.attributes.initial ?? 0))),
      set_value: entitySvc('counter', 'Set', 'Sets the counter to a specific value.', (call, id) => setValue(call, id, String(Math.trunc(Number(call.data.value)))), { value: field('Value', { number: { min: 0, max: Number.MAX_SAFE_INTEGER, mode: 'box' } }, { required: true }) })
    },
    timer: {
      start: entitySvc('timer', 'Start', 'Starts a timer or restarts it with a provided duration.', (call, id, state) => {
        const seconds = durationSeconds(call.data.duration ?? state.attributes.duration)
        const finishes = new Date(Date.now() + seconds * 1000).toISOString().replace('Z', '+00:00')
        call.house.updateState(id, { state: 'active', attributes: { duration: formatDuration(seconds), remaining: formatDuration(seconds), finishes_at: finishes } }, call.context)
      }, { duration: field('Duration', { text: {} }) }),
      pause: entitySvc('timer', 'Pause', 'Pauses a running timer.', (call, id, state) => { if (state.state === 'active') call.house.updateState(id, { state: 'paused' }, call.context) }),
      cancel: entitySvc('timer', 'Cancel', 'Resets a timer’s duration to the last known initial value without firing the timer finished event.', (call, id, state) => {
        const attrs = { ...state.attributes }
        delete attrs.finishes_at
        delete attrs.remaining
        call.house.setState(id, 'idle', attrs, call.context)
      }),
      finish: entitySvc('timer', 'Finish', 'Finishes a running timer earlier than scheduled.', (call, id, state) => {
        const attrs = { ...state.attributes }
        delete attrs.finishes_at
        delete attrs.remaining
        call.house.setState(id, 'idle', attrs, call.context)
        call.house.fire('timer.finished', { entity_id: id }, call.context)
      })
    }
  }
}
