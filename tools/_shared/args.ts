import { z } from 'zod'

/** Shared argument schemas, so every tool describes paging and ids the same way. */
export const limitArg = (max: number, fallback: number) =>
  z.number().int().min(1).max(max).default(fallback).describe('Page size.')

export const offsetArg = () =>
  z.number().int().min(0).default(0).describe('From next_offset.')

export const entityIdArg = (description = 'Entity id, e.g. light.kitchen.') =>
  z.string().trim().min(3).max(255).regex(/^[a-z0-9_]+\.[a-z0-9_]+$/i, 'must look like domain.object_id, e.g. light.kitchen').describe(description)
