import { z } from 'zod'
import { UserError } from '../../src/errors.ts'
import { defineTool } from '../../src/mcp/runtime/define-tool.ts'

const OUTPUT_MAX_CHARS = 5000
/** Bytes read from Home Assistant's answer: 5000 characters are at most 20,000 bytes of UTF-8. */
const OUTPUT_READ_BYTES = 4 * OUTPUT_MAX_CHARS

export default defineTool({
  name: 'ha_render_template',
  title: 'Render template',
  description: 'Jinja, rendered by Home Assistant; output cut at 5000 characters.',
  kind: 'read',
  // A template can read a camera's rotating access_token and rewrite it (| upper, | reverse) past the
  // answer's token scrub: rendering one is reading the cameras' credentials, so it is filed with them.
  category: 'camera',
  everyday: false,
  keywords: {
    en: 'template jinja render evaluate expression calculate test template',
    de: 'vorlage template jinja rendern auswerten ausdruck berechnen',
    fr: 'modèle template jinja évaluer expression calculer',
    es: 'plantilla template jinja evaluar expresión calcular',
    nl: 'sjabloon template jinja evalueren expressie berekenen'
  },
  // A template can read any entity, so it would bypass filter_reads: the tool does not exist then.
  enabled: options => !options.filter_reads,
  input: z.object({
    template: z.string().min(1).max(5000).describe('Template.')
  }),
  async handler ({ ha }, { template }) {
    // Only the start of the output is read: a template over every state renders megabytes.
    let answer: Awaited<ReturnType<typeof ha.rest.prefix>>
    try {
      answer = await ha.rest.prefix('POST', '/api/template', { template }, OUTPUT_READ_BYTES)
    } catch (err) {
      const message = (err as Error).message
      if (/HTTP 400/.test(message)) {
        throw new UserError('HAMCP_INVALID_ARGUMENT', `Template error: ${message.replace(/^.*HTTP 400: /, '')}`, 'Fix the Jinja syntax (check quotes, braces and filter names) and call again.')
      }
      throw err
    }
    // A cut may fall inside a character: the decoder drops the partial one at the end.
    const text = new TextDecoder().decode(answer.body, { stream: !answer.complete })
    if (answer.complete && text.length <= OUTPUT_MAX_CHARS) return { result: text }
    const length = answer.complete ? text.length : answer.length
    return {
      result: text.slice(0, OUTPUT_MAX_CHARS),
      truncated: true,
      ...(length !== undefined ? { length } : { length_at_least: OUTPUT_READ_BYTES }),
      note: 'Output cut at 5000 characters; render a narrower template.'
    }
  }
})
