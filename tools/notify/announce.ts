import { z } from 'zod'
import { UserError } from '../../src/errors.ts'
import { defineTool } from '../../src/mcp/runtime/define-tool.ts'
import { requireDomain, requireEntity } from '../../src/home/entities.ts'
import { confirmTokenArg, dryRunArg, formatOutcome, rateLimitedWrite } from '../_shared/write.ts'
import { clip } from '../../src/shape.ts'

export default defineTool({
  name: 'ha_announce',
  title: 'Announce a message',
  description: 'TTS on an assist satellite or media player, 3/min per target; no target: lists targets.',
  kind: 'write',
  category: 'notify',
  everyday: true,
  keywords: {
    en: 'say speak tell out loud voice speaker tts broadcast intercom alexa google home sonos assist satellite talk',
    de: 'sagen sprechen durchsage ansage laut stimme lautsprecher sprachausgabe mitteilen ausrufen',
    fr: 'dire parler annoncer annonce voix haut parleur enceinte diffuser vocal',
    es: 'decir hablar anunciar anuncio voz altavoz bocina en voz alta difundir',
    nl: 'zeggen spreken omroepen aankondigen aankondiging stem luidspreker speaker hardop'
  },
  hints: { destructiveHint: false },
  input: z.object({
    message: z.string().optional().describe('Max 500 chars.'),
    target: z.string().trim().toLowerCase().optional().describe('assist_satellite.* or media_player.* id.'),
    engine: z.string().trim().optional().describe('tts.* engine for media players.'),
    dry_run: dryRunArg(),
    confirm_token: confirmTokenArg()
  }),
  async handler (ctx, args) {
    if (!args.target) {
      return {
        satellites: ctx.home.domain('assist_satellite').map(row => row.entity_id),
        media_players: ctx.home.domain('media_player').map(row => row.entity_id),
        engines: ctx.home.domain('tts').map(row => row.entity_id),
        note: 'Pass a satellite or media player as target.'
      }
    }
    if (!args.message) throw new UserError('HAMCP_INVALID_ARGUMENT', 'message is required to announce.', 'Add the text to speak.')
    const message = clip(args.message, 500)
    const domain = requireDomain(args.target, ['assist_satellite', 'media_player'], 'an assist satellite or a media player')
    requireEntity(ctx.home, args.target)
    let request
    if (domain === 'assist_satellite') {
      request = { domain: 'assist_satellite', service: 'announce', target: { entity_id: args.target }, data: { message } }
    } else {
      const engine = args.engine ?? ctx.home.domain('tts').map(row => row.entity_id)[0]
      if (!engine) throw new UserError('HAMCP_NOT_SUPPORTED', 'No text-to-speech engine is available.', 'Set up a TTS integration in Home Assistant, or use an assist satellite.')
      requireDomain(engine, ['tts'], 'a tts engine')
      requireEntity(ctx.home, engine)
      request = { domain: 'tts', service: 'speak', target: { entity_id: engine }, data: { media_player_entity_id: args.target, message } }
    }
    const outcome = await rateLimitedWrite(ctx, 'announce', args.target, {
      kind: 'service', tool: ctx.tool, ...request, dryRun: args.dry_run, confirmToken: args.confirm_token, undoable: false
    })
    return formatOutcome(outcome)
  }
})
