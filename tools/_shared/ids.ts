import { z } from 'zod'

/**
 * A short list of entity ids (one id alone is read as a list of one), lower-cased as `entityIdArg`
 * does; ids are checked in the handler, keeping the schema small.
 */
export const entityIdsArg = (max: number, what = 'Entity id') =>
  z.union([z.string().trim().toLowerCase().min(1), z.array(z.string().trim().toLowerCase().min(1)).min(1).max(max)])
    .describe(`${what}s.`)
