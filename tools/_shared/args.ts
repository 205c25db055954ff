import { z } from 'zod'

/** Shared argument schemas, so every tool describes paging and ids the same way. */
export const limitArg = (max: number, fallback: number) =>
  z.number().int().min(1).max(max).default(fallback).describe('Max items to return.')

export const offsetArg = () =>
  z.number().int().min(0).default(0).describe('Items to skip: next_offset of the previous page.')

export const entityIdArg = (what = 'Entity id') =>
  z.string().trim().min(3).max(255).regex(/^[a-z0-9_]+\.[a-z0-9_]+$/i, 'must look like domain.object_id, e.g. light.kitchen').describe(`${what}, e.g. light.kitchen.`)
