import type { ToolContext } from '../runtime/define-tool.ts'
import { areaCandidates, entityCandidates, rankCompletions, type Candidate } from './home-completions.ts'
import { getHomePrompt, PROMPT_LIST, promptArgumentCandidates } from './home-prompts.ts'
import { UserError } from '../../errors.ts'
import { AREA_TEMPLATE, ENTITY_TEMPLATE, FIXED_RESOURCES, mayReadResource, readHomeResource, RESOURCE_TEMPLATES } from './home-resources.ts'
import type { CompletionRef, McpSurface } from './surface.ts'

function candidatesFor (ref: CompletionRef, argument: string, ctx: ToolContext): Candidate[] {
  if (ref.type === 'ref/resource') {
    if (ref.uri === ENTITY_TEMPLATE && argument === 'entity_id') return entityCandidates(ctx)
    if (ref.uri === AREA_TEMPLATE && argument === 'area_id') return areaCandidates(ctx)
    return []
  }
  return promptArgumentCandidates(ref.name, argument, ctx) ?? []
}

function deniedResource (uri: string): UserError {
  return new UserError('HAMCP_DENIED_LEVEL', `This token's level does not allow reading ${uri}.`, 'The owner sets a named token\'s level per category on the Tokens tab of the add-on\'s panel.')
}

/**
 * The home's resources, prompts and completions. Everything goes through the same filtered HomeView
 * as the tools, so filter_reads hides an entity here exactly as it does there.
 */
export function createHomeSurface (): McpSurface {
  return {
    resources: ctx => FIXED_RESOURCES.filter(resource => mayReadResource(resource.uri, ctx.identity)),
    resourceTemplates: () => RESOURCE_TEMPLATES,
    mayRead: mayReadResource,
    readResource: async (uri, ctx) => {
      if (!mayReadResource(uri, ctx.identity)) throw deniedResource(uri)
      return await readHomeResource(uri, ctx)
    },
    prompts: () => PROMPT_LIST,
    getPrompt: getHomePrompt,
    complete: async (ref, argument, ctx) => {
      // Candidates are entity, area and automation ids: only for a token that may read the entities.
      if (!mayReadResource(ENTITY_TEMPLATE, ctx.identity)) return []
      try {
        await ctx.home.ready()
      } catch {
        return []
      }
      return rankCompletions(candidatesFor(ref, argument.name, ctx), argument.value)
    }
  }
}
