import { slugify } from '../_shared/config-store.ts'

/** Home Assistant's slugify as the registry uses it: the id a name becomes, "unknown" for none. */
export function slugLike (text: string): string {
  return slugify(text) || 'unknown'
}
