import { z } from 'zod'
import { UserError } from '../../src/errors.ts'
import { defineTool } from '../../src/mcp/define-tool.ts'

const OUTPUT_MAX_CHARS = 5000

export default defineTool({
  name: 'ha_render_template',
  title: 'Render template',
  description: 'Render a Jinja template in Home Assistant; output cut at 5000 characters.',
  kind: 'read',
  // A template can read any entity, so it would bypass filter_reads: the tool does not exist then.
  enabled: options => !options.filter_reads,
  input: z.object({
    template: z.string().min(1).max(5000).describe('Jinja template.')
  }),
  async handler ({ ha }, { template }) {
    let rendered: unknown
    try {
      rendered = await ha.rest.json('POST', '/api/template', { template })
    } catch (err) {
      const message = (err as Error).message
      if (/HTTP 400/.test(message)) {
        throw new UserError('HAMCP_INVALID_ARGUMENT', `Template error: ${message.replace(/^.*HTTP 400: /, '')}`, 'Fix the Jinja syntax (check quotes, braces and filter names) and call again.')
      }
      throw err
    }
    const text = typeof rendered === 'string' ? rendered : JSON.stringify(rendered) ?? ''
    if (text.length <= OUTPUT_MAX_CHARS) return { result: text }
    return { result: text.slice(0, OUTPUT_MAX_CHARS), truncated: true, length: text.length, note: 'Output cut at 5000 characters; render a narrower template.' }
  }
})
