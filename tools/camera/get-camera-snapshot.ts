import { z } from 'zod'
import { UserError } from '../../src/errors.ts'
import type { RawToolResult } from '../../src/mcp/runtime/define-tool.ts'
import { defineTool } from '../../src/mcp/runtime/define-tool.ts'
import { domainEntityArg } from '../_shared/args.ts'
import { requireDomainEntity } from '../_shared/read-calls.ts'

export const SNAPSHOT_MAX_BYTES = 4_000_000

export default defineTool({
  name: 'ha_get_camera_snapshot',
  title: 'Get camera snapshot',
  description: 'Still image, max 4 MB; audited.',
  kind: 'camera',
  category: 'camera',
  everyday: true,
  keywords: {
    en: 'camera picture photo image snapshot look see view front door doorbell who is at the door cctv',
    de: 'kamera bild foto schnappschuss sehen anschauen haustür klingel überwachung',
    fr: 'caméra photo image capture voir regarder porte sonnette surveillance',
    es: 'cámara foto imagen captura ver mirar puerta timbre vigilancia',
    nl: 'camera foto afbeelding beeld momentopname kijken zien voordeur deurbel bewaking'
  },
  input: z.object({
    entity_id: domainEntityArg('camera', 'camera.front_door').describe('Entity id.')
  }),
  async handler ({ ha, home, identity, services, tool }, { entity_id: entityId }) {
    const row = requireDomainEntity(home, entityId, 'camera', 'Use ha_list_entities with domain camera to find cameras.')
    const answer = await ha.rest.request('GET', `/api/camera_proxy/${entityId}`)
    if (answer.status !== 200) {
      throw new UserError('HAMCP_UNAVAILABLE', `${row.name} returned no image (HTTP ${answer.status}).`, 'The camera may be off or unavailable; check its state with ha_get_entity.')
    }
    const mimeType = answer.contentType.split(';')[0]?.trim() || 'image/jpeg'
    if (!mimeType.startsWith('image/')) throw new UserError('HAMCP_UNAVAILABLE', `${row.name} did not answer with an image (${mimeType}).`)
    if (answer.body.length > SNAPSHOT_MAX_BYTES) {
      throw new UserError('HAMCP_TOO_LARGE', `The snapshot is ${answer.body.length} bytes, over the 4 MB limit.`, 'Lower the camera\'s still-image resolution in its integration settings.')
    }
    // Images leave the home: each one is recorded, with the caller and the size.
    services.audit.record({ tool, identity: identity.id, identity_name: identity.name, outcome: 'allowed', entities: [entityId], reason: `snapshot ${answer.body.length} bytes` })
    const result: RawToolResult = {
      raw: true,
      content: [
        { type: 'image', data: answer.body.toString('base64'), mimeType },
        { type: 'text', text: JSON.stringify({ entity_id: entityId, name: row.name, bytes: answer.body.length, mime_type: mimeType }) }
      ],
      structuredContent: { entity_id: entityId, name: row.name, bytes: answer.body.length, mime_type: mimeType }
    }
    return result
  }
})
