import t from 'tap'
import { createLogger, formatLine, maskSecret, SecretScrubber } from '../../src/logger.ts'
import { LOG_LEVELS } from '../../src/options.ts'

const SECRET = 'abcdefgh-very-secret-token-value-123'

t.test('one readable line per event with Home Assistant level names', async t => {
  const line = formatLine(JSON.stringify({ level: 35, time: 0, msg: 'hello', port: 1 }))
  t.equal(line, '[1970-01-01T00:00:00.000Z] NOTICE hello {"port":1}\n')
})

t.test('a secret never appears in full at any level', async t => {
  for (const level of LOG_LEVELS) {
    const lines: string[] = []
    const scrubber = new SecretScrubber()
    scrubber.add(SECRET)
    const log = createLogger({ level: 'trace', scrubber, write: line => lines.push(line) })
    const method = level === 'warning' ? 'warning' : level === 'notice' ? 'notice' : level
    ;(log[method] as (obj: object, msg: string) => void)({ header: `Bearer ${SECRET}`, nested: { value: SECRET } }, `message with ${SECRET}`)
    const text = lines.join('')
    t.notOk(text.includes(SECRET), `${level}: not in clear`)
    t.ok(text.includes(maskSecret(SECRET)), `${level}: masked form shown`)
  }
  t.equal(maskSecret(SECRET), 'abcdefgh********')
})

t.test('level filtering', async t => {
  const lines: string[] = []
  const log = createLogger({ level: 'warning', scrubber: new SecretScrubber(), write: line => lines.push(line) })
  log.info('hidden')
  log.notice('hidden too')
  log.warning('shown')
  log.error('shown')
  t.equal(lines.length, 2)
})
