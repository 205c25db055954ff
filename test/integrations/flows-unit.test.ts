import t from 'tap'
import { factValue, formFields, shownFields, shownValue } from '../../tools/_shared/data-entry-flows.ts'

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
