import { z } from 'zod'
import { UserError } from '../../src/errors.ts'
import type { HomeView } from '../../src/home/view.ts'

/** Visible entity ids of one domain, sorted; used for the target lists of notify and announce. */
export function visibleIds (home: HomeView, domain: string): string[] {
  const prefix = `${domain}.`
  return home.entities().filter(row => row.entity_id.startsWith(prefix)).map(row => row.entity_id)
}

/** Truncates a message to what the tool accepts, without splitting a surrogate pair. */
export function clip (text: string, max: number): string {
  if (text.length <= max) return text
  const cut = /[\uD800-\uDBFF]/.test(text[max - 1] ?? '') ? max - 1 : max
  return text.slice(0, cut)
}

export function requireDomain (entityId: string, domains: readonly string[], what: string): string {
  const domain = entityId.split('.', 1)[0] ?? ''
  if (!domains.includes(domain)) throw new UserError('HAMCP_WRONG_DOMAIN', `${entityId} is not ${what}.`, `Use an entity of: ${domains.join(', ')}.`)
  return domain
}

/** An entity id of one domain, with the domain in the schema so the model sees it. */
export const domainEntityArg = (domain: string) =>
  z.string().trim().toLowerCase().regex(new RegExp(`^${domain}\\.[a-z0-9_]+$`), `must be a ${domain}.* entity id`).describe(`${domain}.* entity id.`)
