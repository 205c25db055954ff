import type { House } from '../house.ts'
import { field, svc, type ServiceCall, type ServiceTable } from './registry.ts'

/**
 * conversation.process, as Home Assistant's built-in agent answers it (homeassistant/components/
 * conversation/__init__.py SERVICE_PROCESS, default_agent.py; the intents' handlers in homeassistant/
 * helpers/intent.py ServiceIntentHandler): a sentence is matched to an intent and to entities exposed
 * to Assist (`options.conversation.should_expose`, homeassistant/components/homeassistant/
 * exposed_entities.py), by name, and the intent calls the entity's service in the call's context. The
 * demo knows a handful of English sentences, enough to show that a sentence reaches entities no id names.
 */

const SENTENCES: Array<{ verb: RegExp, service: (domain: string) => string | undefined }> = [
  { verb: /^unlock (?:the )?(.+)$/, service: domain => domain === 'lock' ? 'lock.unlock' : undefined },
  { verb: /^lock (?:the )?(.+)$/, service: domain => domain === 'lock' ? 'lock.lock' : undefined },
  { verb: /^open (?:the )?(.+)$/, service: domain => domain === 'cover' ? 'cover.open_cover' : domain === 'lock' ? 'lock.open' : undefined },
  { verb: /^close (?:the )?(.+)$/, service: domain => domain === 'cover' ? 'cover.close_cover' : undefined },
  { verb: /^turn on (?:the )?(.+)$/, service: () => 'homeassistant.turn_on' },
  { verb: /^turn off (?:the )?(.+)$/, service: () => 'homeassistant.turn_off' }
]

function exposedByName (house: House, name: string): string[] {
  const wanted = name.trim().toLowerCase()
  return house.home.entities
    .filter(entry => (entry.options as { conversation?: { should_expose?: unknown } } | undefined)?.conversation?.should_expose === true)
    .map(entry => entry.entity_id)
    .filter(id => String(house.states.get(id)?.attributes.friendly_name ?? '').toLowerCase() === wanted)
}

async function process (call: ServiceCall): Promise<unknown> {
  const text = String(call.data.text ?? '').trim().toLowerCase().replace(/[.!?]+$/, '')
  const speech = (said: string): Record<string, unknown> => ({ plain: { speech: said, extra_data: null } })
  for (const sentence of SENTENCES) {
    const match = sentence.verb.exec(text)
    if (!match) continue
    const done: Array<{ type: string, name: string, id: string }> = []
    for (const id of exposedByName(call.house, match[1] as string)) {
      const service = sentence.service(id.split('.')[0] as string)
      if (service === undefined) continue
      const [domain, name] = service.split('.') as [string, string]
      await call.house.invoke({ domain, service: name, target: { entity_id: [id] }, via: 'ws', context: call.context, internal: true })
      done.push({ type: 'entity', name: String(call.house.states.get(id)?.attributes.friendly_name ?? id), id })
    }
    if (done.length > 0) return { response: { speech: speech('Done'), card: {}, language: 'en', response_type: 'action_done', data: { targets: [], success: done, failed: [] } }, conversation_id: null, continue_conversation: false }
    return { response: { speech: speech(`No device or entity named ${match[1] as string}`), card: {}, language: 'en', response_type: 'error', data: { code: 'no_valid_targets' } }, conversation_id: null, continue_conversation: false }
  }
  return { response: { speech: speech('Sorry, I couldn\'t understand that'), card: {}, language: 'en', response_type: 'error', data: { code: 'no_intent_match' } }, conversation_id: null, continue_conversation: false }
}

export function conversationServices (): ServiceTable {
  return {
    conversation: {
      process: svc('Process', 'Launches a conversation from a transcribed text.', {
        text: field('Text', { text: {} }, { required: true }),
        language: field('Language', { text: {} }),
        agent_id: field('Agent', { conversation_agent: {} }),
        conversation_id: field('Conversation ID', { text: {} })
      }, { response: 'optional', run: process })
    }
  }
}
