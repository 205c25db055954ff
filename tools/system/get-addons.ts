import { z } from 'zod'
import { HomeAssistantError, UserError } from '../../src/errors.ts'
import { roleLimit } from '../_shared/supervisor-role.ts'
import { defineTool } from '../../src/mcp/runtime/define-tool.ts'
import { ADDON_SLUG } from '../../src/policy/input-checks.ts'
import { excerpt } from '../../src/shape.ts'
import { supervisorGet } from './_supervisor.ts'

interface Addon { slug?: string, name?: string, description?: string, version?: string, version_latest?: string, update_available?: boolean, state?: string, repository?: string, stage?: string, boot?: string, ingress?: boolean, url?: string | null, auto_update?: boolean }

/**
 * The list comes from `/supervisor/info`, whose v1 answer still carries every installed add-on (supervisor
 * api/supervisor.py `info_v1`, marked deprecated, gone from the v2 contract): `/.+/info` is open to the
 * add-on's `backup` role, where `GET /addons` needs `manager` (api/middleware/security.py).
 */

export default defineTool({
  name: 'ha_get_addons',
  title: 'Get add-ons',
  description: 'Installed add-ons: version, state, update; slug gives one (never its options).',
  kind: 'read',
  category: 'system',
  everyday: false,
  keywords: {
    en: 'addons add-ons apps installed plugins supervisor mosquitto zigbee2mqtt esphome node red version running',
    de: 'addons erweiterungen installiert apps supervisor version läuft',
    fr: 'modules complémentaires addons extensions installés applications supervisor version',
    es: 'complementos addons extensiones instalados aplicaciones supervisor versión',
    nl: 'add-ons addons uitbreidingen geïnstalleerd apps supervisor versie'
  },
  input: z.object({
    slug: z.string().trim().regex(ADDON_SLUG, 'lowercase letters, digits, _ and - only').max(64).optional().describe('e.g. core_mosquitto')
  }),
  async handler ({ ha }, { slug }) {
    if (slug === undefined) {
      const data = await supervisorGet<{ addons?: Addon[] }>(ha, '/supervisor/info', 'The add-on list')
      if (!Array.isArray(data.addons)) throw roleLimit('The add-on list', 'manager')
      const items = (data.addons ?? []).map(a => ({ slug: a.slug, name: a.name, version: a.version, state: a.state, update_available: a.update_available || undefined, version_latest: a.update_available ? a.version_latest : undefined }))
      return { items, returned: items.length, total: items.length, has_more: false, next_offset: null, updates_available: items.filter(a => a.update_available).length }
    }
    let info: Addon
    try {
      info = await supervisorGet<Addon>(ha, `/addons/${slug}/info`, 'Add-on information')
    } catch (err) {
      if (err instanceof HomeAssistantError && (err.upstreamStatus === 400 || err.upstreamStatus === 404)) throw new UserError('HAMCP_NOT_FOUND', `Unknown add-on "${slug}".`, 'Call ha_get_addons without slug to see installed add-ons and their slugs.')
      throw err
    }
    // Options are left out on purpose: other add-ons keep passwords and keys there.
    return {
      slug: info.slug,
      name: info.name,
      description: excerpt(info.description, 300),
      version: info.version,
      version_latest: info.version_latest,
      update_available: info.update_available,
      state: info.state,
      boot: info.boot,
      auto_update: info.auto_update,
      repository: info.repository,
      stage: info.stage,
      ingress: info.ingress,
      url: info.url
    }
  }
})
