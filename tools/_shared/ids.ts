import { z } from 'zod'

/** One entity id or a short list of them; ids are checked in the handler, keeping the schema small. */
export const entityIdsArg = (max: number, what = 'Entity id') =>
  z.union([z.string().trim().min(1), z.array(z.string().trim().min(1)).min(1).max(max)])
    .describe(`${what}, or a list.`)
