/** A form body as @fastify/formbody parses it: a repeated field is an array. */
export type Form = Record<string, string | string[] | undefined>

export function formOf (body: unknown): Form {
  return body && typeof body === 'object' ? body as Form : {}
}

export function single (value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}

export function list (value: string | string[] | undefined): string[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value]
}
