import { z } from 'zod'
import { domainEntityPattern, ENTITY_ID, SLUG } from '../../src/home/entities.ts'
import { complexityProblem } from '../../src/policy/input-checks.ts'

/** Shared argument schemas, so every tool describes paging and ids the same way. */
export const limitArg = (max: number, fallback: number) =>
  z.number().int().min(1).max(max).default(fallback).describe('Page size.')

export const offsetArg = () =>
  z.number().int().min(0).default(0).describe('From next_offset.')

/**
 * Ids are read as Home Assistant's `cv.entity_id` reads them: any case, lower-cased before the
 * pattern, so `Light.Kitchen` finds `light.kitchen`. Every id argument goes through one of these.
 */
export const entityIdArg = (description = 'Entity id.') =>
  z.string().trim().toLowerCase().min(3).max(255).regex(ENTITY_ID, 'must look like domain.object_id, e.g. light.kitchen').describe(description)

/** An entity id of one domain, with the domain in the schema so the model sees it. */
export const domainEntityArg = (domain: string, example?: string) =>
  z.string().trim().toLowerCase().regex(domainEntityPattern(domain), `must be a ${domain}.* entity id${example ? `, e.g. ${example}` : ''}`).describe('Entity id.')

/** A domain (`light`) or a service name (`turn_on`), lower-cased as Home Assistant's `cv.service` does. */
export const slugArg = (what: string, example: string) =>
  z.string().trim().toLowerCase().regex(SLUG, `a ${what} such as ${example}`).describe(`${what}.`)

/**
 * A free-form object (service data, variables, blueprint inputs): any JSON, but bounded in depth and size
 * so no later walk (fingerprint, scans, logs) can be made to exhaust the stack.
 */
export const freeFormArg = () =>
  z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
    const problem = complexityProblem(value)
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: `${problem}; send a flatter, smaller object` })
  })

/** Any schema (a list of config blocks...), bounded in depth and size as a whole. */
export function bounded<T extends z.ZodType> (schema: T): T {
  return schema.superRefine((value, ctx) => {
    const problem = complexityProblem(value)
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: `${problem}; send a flatter, smaller config` })
  }) as unknown as T
}
