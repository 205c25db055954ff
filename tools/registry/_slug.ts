/** Close to Home Assistant's slugify (python-slugify with "_"): the id a name becomes. */
export function slugLike (text: string): string {
  const slug = text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '')
  return slug === '' ? 'unknown' : slug
}
