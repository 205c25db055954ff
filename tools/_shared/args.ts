import { z } from 'zod'
import { domainEntityPattern, ENTITY_ID } from '../../src/home/entities.ts'

/** Shared argument schemas, so every tool describes paging and ids the same way. */
export const limitArg = (max: number, fallback: number) =>
  z.number().int().min(1).max(max).default(fallback).describe('Page size.')

export const offsetArg = () =>
  z.number().int().min(0).default(0).describe('From next_offset.')

export const entityIdArg = (description = 'Entity id, e.g. light.kitchen.') =>
  z.string().trim().min(3).max(255).regex(new RegExp(ENTITY_ID.source, 'i'), 'must look like domain.object_id, e.g. light.kitchen').describe(description)

/** An entity id of one domain, with the domain in the schema so the model sees it. */
export const domainEntityArg = (domain: string) =>
  z.string().trim().toLowerCase().regex(domainEntityPattern(domain), `must be a ${domain}.* entity id`).describe(`${domain}.* entity id.`)
