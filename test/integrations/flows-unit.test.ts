import t from 'tap'
import { factValue, formFields, shownFields, shownValue, walkFlow } from '../../tools/_shared/data-entry-flows.ts'

// A form as voluptuous_serialize writes it (core helpers/data_entry_flow.py, cv.custom_serializer for selectors).
const step = {
  type: 'form',
  flow_id: 'f',
  data_schema: [
    { name: 'host', required: true, type: 'string', default: '192.168.1.40' },
    { name: 'secret_word', optional: true, selector: { text: { type: 'password' } }, description: { suggested_value: 'hunter2' } },
    { name: 'api_key', optional: true, type: 'string', default: 'abc123' },
    { name: 'scan_interval', optional: true, selector: { number: { min: 10 } }, default: 60 }
  ]
}

t.test('a form\'s fields keep their current values, credentials never shown', async t => {
  const fields = formFields(step)
  t.same(fields.map(f => [f.name, f.type, f.required, f.current]), [['host', 'string', true, '192.168.1.40'], ['secret_word', 'text', false, 'hunter2'], ['api_key', 'string', false, 'abc123'], ['scan_interval', 'number', false, 60]])
  const shown = JSON.stringify(shownFields(fields))
  t.notMatch(shown, /hunter2|abc123/, 'a password selector or a key name is masked')
  t.match(shown, /192\.168\.1\.40/)
  t.equal(shownValue(fields, 'secret_word', 'new'), '********')
  t.equal(shownValue(fields, 'scan_interval', 30), 30)
  t.notMatch(factValue(fields, 'secret_word', 'hunter2'), /hunter2/, 'facts hold a hash, not the secret')
  t.not(factValue(fields, 'secret_word', 'hunter2'), factValue(fields, 'secret_word', 'other'), 'a changed secret still shows as changed')
})

/** Home Assistant's flow views as a script: each request answered in turn, every request recorded. */
function fakeFlows (answers: Array<{ status: number, json: unknown }>): { ctx: any, sent: string[] } {
  const sent: string[] = []
  const ctx = {
    ha: {
      mode: 'dev',
      status: () => ({ admin: true }),
      rest: {
        request: async (method: string, path: string, body?: unknown) => {
          sent.push(`${method} ${path}${body === undefined ? '' : ` ${JSON.stringify(body)}`}`)
          const answer = method === 'DELETE' ? { status: 200, json: { message: 'Flow aborted' } } : answers.shift() ?? { status: 404, json: { message: 'Invalid flow specified' } }
          return { status: answer.status, body: Buffer.from(JSON.stringify(answer.json)) }
        }
      }
    }
  }
  return { ctx, sent }
}

const menu = { type: 'menu', flow_id: 'f1', step_id: 'user', menu_options: ['binary_sensor', 'sensor'] }
const sensorForm = { type: 'form', flow_id: 'f1', step_id: 'sensor', last_step: true, errors: null, data_schema: [{ name: 'name', required: true, selector: { text: {} } }, { name: 'state', required: true, selector: { template: {} } }, { name: 'state_class', optional: true, selector: { select: { options: [{ value: 'measurement', label: 'Measurement' }, 'total'] } } }] }
const path = (id: string): string => `/api/config/config_entries/flow/${id}`

t.test('a form\'s current value is its suggested value when set, else its default; a null suggestion is no value (the frontend\'s rule)', async t => {
  const fields = formFields({
    type: 'form',
    flow_id: 'f',
    data_schema: [
      { name: 'hysteresis', required: true, default: 0, description: { suggested_value: 0.5 } },
      { name: 'upper', optional: true, description: { suggested_value: null } },
      { name: 'lower', optional: true, default: 2, description: { suggested_value: null } }
    ]
  })
  t.same(fields.map(f => [f.name, f.current]), [['hysteresis', 0.5], ['upper', undefined], ['lower', 2]])
})

t.test('walkFlow: a menu answered with next_step_id, the form with its input, create_entry ends it', async t => {
  const { ctx, sent } = fakeFlows([{ status: 200, json: sensorForm }, { status: 200, json: { type: 'create_entry', flow_id: 'f1', result: { entry_id: 'e1' } } }])
  const end = await walkFlow(ctx, path, menu, { what: 'the new template helper', menu: () => 'sensor', form: () => ({ name: 'Power', state: '{{ 1 }}' }) })
  t.equal(end.step.type, 'create_entry')
  t.same(end.forms.map(f => f.step), ['sensor'])
  t.same(end.forms[0]?.fields.find(f => f.name === 'state_class')?.choices, ['measurement', 'total'], 'a select\'s values are listed')
  t.same(sent, [`POST ${path('f1')} {"next_step_id":"sensor"}`, `POST ${path('f1')} {"name":"Power","state":"{{ 1 }}"}`])
})

t.test('walkFlow: a form shown again with errors, or refused with 400, is an argument error naming the field, the key and the fields; the flow is aborted', async t => {
  const again = fakeFlows([{ status: 200, json: sensorForm }, { status: 200, json: { ...sensorForm, errors: { state: 'invalid_template' } } }])
  const shown = await walkFlow(again.ctx, path, menu, { what: 'the new template helper', menu: () => 'sensor', form: () => ({ name: 'x', state: '{{' }) }).catch(err => err)
  t.equal(shown.code, 'HAMCP_INVALID_ARGUMENT')
  t.match(shown.message, /state: invalid_template/)
  t.same(shown.details.fields.map((f: any) => [f.name, f.required]), [['name', true], ['state', true], ['state_class', false]])
  t.equal(again.sent.at(-1), `DELETE ${path('f1')}`, 'the flow is aborted')

  const bad = fakeFlows([{ status: 400, json: { errors: { name: 'required key not provided' } } }])
  const refused = await walkFlow(bad.ctx, path, sensorForm, { what: 'the new template helper', form: () => ({}) }).catch(err => err)
  t.equal(refused.code, 'HAMCP_INVALID_ARGUMENT')
  t.match(refused.message, /name: required key not provided/)
  t.match(refused.hint, /name\* \(text\), state\* \(template\), state_class \(select\)/)
  t.equal(bad.sent.at(-1), `DELETE ${path('f1')}`)
})

t.test('walkFlow: a menu choice it does not offer is refused with its choices; a stop before a form aborts without submitting it', async t => {
  const wrong = fakeFlows([])
  const refused = await walkFlow(wrong.ctx, path, menu, { what: 'the new template helper', menu: () => 'light', form: () => ({}) }).catch(err => err)
  t.equal(refused.code, 'HAMCP_INVALID_ARGUMENT')
  t.match(refused.message, /"light" is not one.*binary_sensor, sensor/)
  t.same(wrong.sent, [`DELETE ${path('f1')}`], 'nothing submitted, the flow aborted')

  const dry = fakeFlows([{ status: 200, json: sensorForm }])
  const end = await walkFlow(dry.ctx, path, menu, { what: 'x', menu: () => 'sensor', form: () => ({ name: 'x' }), stopAt: step => step.last_step !== false })
  t.equal(end.step.step_id, 'sensor')
  t.same(dry.sent, [`POST ${path('f1')} {"next_step_id":"sensor"}`, `DELETE ${path('f1')}`], 'the form that would create is never submitted')
})
