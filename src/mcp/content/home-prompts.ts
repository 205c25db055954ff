import { UserError } from '../../errors.ts'
import { fold } from '../../home/text.ts'
import type { ToolContext } from '../runtime/define-tool.ts'
import { areaCandidates, entityCandidates, type Candidate } from './home-completions.ts'
import type { PromptInfo, PromptMessages } from './surface.ts'

interface PromptArgument { name: string, description: string, required?: boolean, choices?: string[], kind?: 'automation' | 'area' | 'hours' }
interface PromptDefinition { name: string, title: string, description: string, arguments: PromptArgument[], text: (args: Record<string, string>, ctx: ToolContext) => string }

const GOAL: PromptArgument = { name: 'goal', description: 'What it should do, in plain words.', required: true }
const AREA: PromptArgument = { name: 'area', description: 'Area it is about (id or name), optional.', kind: 'area' }
const DRAFT_ONLY = 'Write nothing to Home Assistant: show the draft and let the user decide.'

function areaLine (args: Record<string, string>): string {
  return args.area ? ` Focus on the area "${args.area}" (ha_list_entities with area).` : ''
}

/** The propose-* prompts: a goal and an optional area, numbered steps towards a draft, nothing written. */
function proposal (prompt: Pick<PromptDefinition, 'name' | 'title' | 'description'> & { draft: string, steps: string[] }): PromptDefinition {
  return {
    name: prompt.name,
    title: prompt.title,
    description: prompt.description,
    arguments: [GOAL, AREA],
    text: args => [`Draft ${prompt.draft}: ${args.goal}.${areaLine(args)}`, ...prompt.steps.map((step, i) => `${i + 1}. ${step}`)].join('\n')
  }
}

const ENERGY_FALLBACK = '2. If the energy dashboard is not configured, find meters with ha_list_entities (domain sensor, search energy) and read them with ha_get_statistics.'
const ENERGY_REPORT = '3. Report totals, the change from the previous period, the top consumers, and one or two concrete savings ideas.'

function energyByPeriod (period: string): string {
  return [
    `Write an energy report for the last ${period}.`,
    `1. ha_get_energy with period ${period} and compare true.`,
    ENERGY_FALLBACK,
    ENERGY_REPORT
  ].join('\n')
}

/** An energy report over the last `hours`: the energy window that covers them, and statistics for the exact span. */
function energyByHours (hours: number): string {
  const period = hours <= 24 ? 'day' : hours <= 168 ? 'week' : 'month'
  const step = hours <= 168 ? 'hour' : 'day'
  return [
    `Write an energy report for the last ${hours} hours.`,
    `1. ha_get_energy with period ${period} and compare true, for the energy sources and the big picture.`,
    `2. For the exact window: ha_get_statistics with period ${step} on the energy meters (ha_list_entities, domain sensor, search energy) over the last ${hours} hours, and add up the changes.`,
    ENERGY_REPORT.replace('the previous period', 'the same span before')
  ].join('\n')
}

const PROMPTS: PromptDefinition[] = [
  {
    name: 'diagnose-automation',
    title: 'Diagnose an automation',
    description: 'Find out why an automation did or did not run.',
    arguments: [{ name: 'automation', description: 'Automation entity id, e.g. automation.hall_light.', required: true, kind: 'automation' }],
    text: ({ automation }) => [
      `Diagnose ${automation}.`,
      `1. ha_get_automation with entity_id ${automation}: read its triggers, conditions and actions.`,
      '2. ha_get_automation_trace for the recent runs, then with a run_id for the steps of the failing or latest run.',
      '3. ha_get_logbook and ha_get_history on the entities its triggers and conditions use, around the time it should have run.',
      '4. Conclude: what happened, why, and the smallest change that would fix it. Change nothing yourself.'
    ].join('\n')
  },
  {
    name: 'energy-report',
    title: 'Energy report',
    description: 'Summarize energy use over the last hours or a period, and what drives it.',
    arguments: [
      { name: 'hours', description: 'Window in hours ending now, 1 to 8760 (as mcp-ha); or use period.', kind: 'hours' },
      { name: 'period', description: 'day, week or month (default week).', choices: ['day', 'week', 'month'] }
    ],
    text: ({ hours, period }) => hours ? energyByHours(Number(hours)) : energyByPeriod(period ?? 'week')
  },
  {
    name: 'health-report',
    title: 'Health report',
    description: 'Check the home for problems that need attention.',
    arguments: [],
    text: () => [
      'Check the health of this home.',
      '1. ha_get_health: repairs, unavailable entities, low batteries, stale automations.',
      '2. ha_get_system with section updates, then error_log, then backups.',
      '3. List what needs attention first (broken or risky), then the rest, each with the next step to fix it.'
    ].join('\n')
  },
  proposal({
    name: 'propose-automation',
    title: 'Propose an automation',
    description: 'Draft an automation for a goal, without creating it.',
    draft: 'a Home Assistant automation that does this',
    steps: [
      'ha_list_blueprints: if a blueprint fits, prefer it and say which inputs to fill.',
      'ha_search_entities / ha_list_entities to find the exact entity ids; ha_list_services for the actions and their fields.',
      `Show the automation as YAML (triggers, conditions, actions, mode) and explain each part. ${DRAFT_ONLY}`
    ]
  }),
  proposal({
    name: 'propose-script',
    title: 'Propose a script',
    description: 'Draft a script for a goal, without creating it.',
    draft: 'a Home Assistant script that does this',
    steps: [
      'ha_search_entities / ha_list_entities to find the exact entity ids; ha_list_services for the actions and their fields.',
      'ha_list_scripts to avoid duplicating an existing one.',
      `Show the script as YAML (alias, sequence, mode, fields if useful). ${DRAFT_ONLY}`
    ]
  }),
  proposal({
    name: 'propose-dashboard-card',
    title: 'Propose a dashboard card',
    description: 'Draft a Lovelace card for a goal, without adding it.',
    draft: 'a Lovelace dashboard card for this',
    steps: [
      'ha_search_entities / ha_list_entities to find the entities to show.',
      'ha_list_dashboards to see the dashboards and views it could go into.',
      `Show the card as YAML with built-in card types only. ${DRAFT_ONLY} If the user agrees and ha_add_dashboard_card is available, offer to add it.`
    ]
  }),
  {
    name: 'daily-briefing',
    title: 'Daily briefing',
    description: 'A short morning summary of the home.',
    arguments: [],
    text: () => [
      'Give a short daily briefing. Read only; execute nothing.',
      '1. ha_get_presence: who is home.',
      '2. ha_get_calendar for the next 24 hours and ha_get_forecast for today.',
      '3. ha_get_energy with period day for yesterday\'s use.',
      '4. ha_get_health: only urgent items (repairs, low batteries, unavailable devices).',
      'Keep it to a few lines per topic.'
    ].join('\n')
  }
]

export const PROMPT_LIST: PromptInfo[] = PROMPTS.map(p => ({
  name: p.name,
  title: p.title,
  description: p.description,
  arguments: p.arguments.map(a => ({ name: a.name, description: a.description, required: a.required === true }))
}))

function findPrompt (name: string): PromptDefinition {
  const prompt = PROMPTS.find(p => p.name === name)
  if (!prompt) throw new UserError('HAMCP_NOT_FOUND', `Unknown prompt: ${name}. Known prompts: ${PROMPTS.map(p => p.name).join(', ')}.`)
  return prompt
}

function checkArgument (argument: PromptArgument, value: string, ctx: ToolContext): void {
  if (value.length > 1000) throw new UserError('HAMCP_INVALID_ARGUMENT', `Argument ${argument.name} is longer than 1000 characters.`)
  if (argument.choices && !argument.choices.includes(value)) throw new UserError('HAMCP_INVALID_ARGUMENT', `Argument ${argument.name} must be one of ${argument.choices.join(', ')}.`)
  if (argument.kind === 'hours') {
    const hours = Number(value)
    if (!/^\d+(\.\d+)?$/.test(value.trim()) || hours < 1 || hours > 8760) throw new UserError('HAMCP_INVALID_ARGUMENT', `Argument hours must be a number of hours from 1 to 8760, got "${value.slice(0, 40)}".`)
  }
  if (argument.kind === 'automation') {
    if (!value.startsWith('automation.') || !ctx.home.entity(value)) {
      throw new UserError('HAMCP_ENTITY_NOT_FOUND', `Unknown automation "${value}".`, 'Use ha_list_automations or completion to find the entity id.')
    }
  }
  if (argument.kind === 'area') {
    const wanted = fold(value.trim())
    const known = [...ctx.home.registries.areas.values()].some(area =>
      area.area_id === value || fold(area.name) === wanted || area.aliases.some(alias => fold(alias) === wanted))
    if (!known) throw new UserError('HAMCP_NOT_FOUND', `Unknown area "${value}".`, 'Use ha_list_areas to see area ids and names.')
  }
}

export async function getHomePrompt (name: string, args: Record<string, string>, ctx: ToolContext): Promise<PromptMessages> {
  const prompt = findPrompt(name)
  const known = new Set(prompt.arguments.map(a => a.name))
  const unknown = Object.keys(args).filter(key => !known.has(key))
  if (unknown.length) throw new UserError('HAMCP_INVALID_ARGUMENT', `Unknown argument ${unknown.join(', ')} for prompt ${name}.`)
  if (name === 'energy-report' && args.hours && args.period) throw new UserError('HAMCP_INVALID_ARGUMENT', 'Give either hours or period to energy-report, not both.')
  const needsHome = prompt.arguments.some(a => (a.kind === 'automation' || a.kind === 'area') && args[a.name] !== undefined)
  if (needsHome) await ctx.home.ready()
  for (const argument of prompt.arguments) {
    const value = args[argument.name]
    if (value === undefined || value === '') {
      if (argument.required) throw new UserError('HAMCP_INVALID_ARGUMENT', `Prompt ${name} needs the argument ${argument.name}: ${argument.description}`)
      continue
    }
    checkArgument(argument, value, ctx)
  }
  const text = ctx.home.scrub(prompt.text(args, ctx))
  return { description: prompt.description, messages: [{ role: 'user', content: { type: 'text', text } }] }
}

/** Candidates for one prompt argument, or undefined when the argument has none. */
export function promptArgumentCandidates (name: string, argumentName: string, ctx: ToolContext): Candidate[] | undefined {
  const argument = PROMPTS.find(p => p.name === name)?.arguments.find(a => a.name === argumentName)
  if (!argument) return undefined
  if (argument.choices) return argument.choices.map(value => ({ value }))
  if (argument.kind === 'automation') return entityCandidates(ctx, 'automation')
  if (argument.kind === 'area') return areaCandidates(ctx)
  return undefined
}
