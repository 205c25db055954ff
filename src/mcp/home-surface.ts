import type { ToolContext } from './define-tool.ts'
import { areaCandidates, entityCandidates, rankCompletions, type Candidate } from './home-completions.ts'
import { getHomePrompt, PROMPT_LIST, promptArgumentCandidates } from './home-prompts.ts'
import { AREA_TEMPLATE, ENTITY_TEMPLATE, FIXED_RESOURCES, readHomeResource, RESOURCE_TEMPLATES } from './home-resources.ts'
import type { CompletionRef, McpSurface } from './surface.ts'

function candidatesFor (ref: CompletionRef, argument: string, ctx: ToolContext): Candidate[] {
  if (ref.type === 'ref/resource') {
    if (ref.uri === ENTITY_TEMPLATE && argument === 'entity_id') return entityCandidates(ctx)
    if (ref.uri === AREA_TEMPLATE && argument === 'area_id') return areaCandidates(ctx)
    return []
  }
  return promptArgumentCandidates(ref.name, argument, ctx) ?? []
}

/**
 * The home's resources, prompts and completions. Everything goes through the same filtered HomeView
 * as the tools, so filter_reads hides an entity here exactly as it does there.
 */
export function createHomeSurface (): McpSurface {
  return {
    resources: () => FIXED_RESOURCES,
    resourceTemplates: () => RESOURCE_TEMPLATES,
    readResource: readHomeResource,
    prompts: () => PROMPT_LIST,
    getPrompt: getHomePrompt,
    complete: async (ref, argument, ctx) => {
      try {
        await ctx.home.ready()
      } catch {
        return []
      }
      return rankCompletions(candidatesFor(ref, argument.name, ctx), argument.value)
    }
  }
}
