/** Case- and accent-insensitive form of a text: "Étage" and "etage" fold to the same thing. */
export function fold (text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase()
}

/** Query tokens: whitespace-separated, folded, empty ones dropped. */
export function tokens (query: string): string[] {
  return fold(query).split(/\s+/u).filter(Boolean)
}
