import { z } from 'zod'
import { UserError } from '../../src/errors.ts'
import { defineTool } from '../../src/mcp/define-tool.ts'
import { ADDON_SLUG } from '../../src/policy/input-checks.ts'
import { excerpt } from '../../src/shape.ts'
import { supervisorGet } from './_supervisor.ts'

interface Addon { slug?: string, name?: string, description?: string, version?: string, version_latest?: string, update_available?: boolean, state?: string, repository?: string, stage?: string, boot?: string, ingress?: boolean, url?: string | null, auto_update?: boolean }

const REFUSED = 'The Supervisor refused this call for the add-on\'s role; please report it so the add-on can request the right role.'

export default defineTool({
  name: 'ha_get_addons',
  title: 'Get add-ons',
  description: 'Installed add-ons: version, state, update; slug gives one (never its options).',
  kind: 'read',
  input: z.object({
    slug: z.string().trim().regex(ADDON_SLUG, 'lowercase letters, digits, _ and - only').max(64).optional().describe('e.g. core_mosquitto')
  }),
  async handler ({ ha }, { slug }) {
    if (slug === undefined) {
      const data = await supervisorGet<{ addons?: Addon[] }>(ha, '/addons', 'The add-on list')
      if (data === null) return { available: false, note: REFUSED }
      const items = (data.addons ?? []).map(a => ({ slug: a.slug, name: a.name, version: a.version, state: a.state, update_available: a.update_available || undefined, version_latest: a.update_available ? a.version_latest : undefined }))
      return { items, returned: items.length, total: items.length, has_more: false, next_offset: null, updates_available: items.filter(a => a.update_available).length }
    }
    let info: Addon | null
    try {
      info = await supervisorGet<Addon>(ha, `/addons/${slug}/info`, 'Add-on information')
    } catch (err) {
      if (/HTTP (400|404)/.test((err as Error).message)) throw new UserError('HAMCP_NOT_FOUND', `Unknown add-on "${slug}".`, 'Call ha_get_addons without slug to see installed add-ons and their slugs.')
      throw err
    }
    if (info === null) return { available: false, note: REFUSED }
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
