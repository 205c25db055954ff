import { z } from 'zod'
import { defineTool } from '../../src/mcp/runtime/define-tool.ts'
import { excerpt } from '../../src/shape.ts'
import { domainEntityArg } from '../_shared/args.ts'
import { domainRows, readServiceResponse, requireDomainEntity } from '../_shared/read-calls.ts'

const ITEMS_CAP = 100

interface TodoItem { summary?: string, status?: string, due?: string, description?: string, uid?: string }

export default defineTool({
  name: 'ha_get_todo_list',
  title: 'Get to-do list',
  description: 'Items of a to-do list (max 100); no entity_id: the lists with open counts.',
  kind: 'read',
  category: 'calendar',
  everyday: true,
  keywords: {
    en: 'todo to-do list shopping list groceries tasks chores what is on my list items open',
    de: 'aufgaben todo liste einkaufsliste einkauf besorgungen was steht auf der liste',
    fr: 'liste de tâches courses liste de courses tâches à faire éléments',
    es: 'lista de tareas compras lista de la compra tareas pendientes elementos',
    nl: 'takenlijst todo boodschappenlijst boodschappen taken wat staat op de lijst'
  },
  input: z.object({
    entity_id: domainEntityArg('todo', 'todo.shopping_list').optional().describe('Entity id.'),
    status: z.enum(['needs_action', 'completed']).optional().describe('Status.')
  }),
  async handler ({ ha, home }, args) {
    if (args.entity_id === undefined) {
      const lists = domainRows(home, 'todo').map(row => ({ entity_id: row.entity_id, name: row.name, open_items: Number(row.state) }))
      return { lists, note: lists.length ? 'Pass entity_id to read one list.' : 'This home has no to-do list.' }
    }
    const row = requireDomainEntity(home, args.entity_id, 'todo', 'Call ha_get_todo_list without entity_id to see the lists.')
    const response = await readServiceResponse(ha, 'todo', 'get_items', args.entity_id, args.status ? { status: [args.status] } : {})
    const all = Array.isArray(response.items) ? response.items as TodoItem[] : []
    const items = all.slice(0, ITEMS_CAP).map(item => ({ summary: excerpt(item.summary, 200), status: item.status, due: item.due, description: excerpt(item.description, 300) }))
    return {
      entity_id: args.entity_id,
      name: row.name,
      items,
      returned: items.length,
      total: all.length,
      has_more: all.length > items.length,
      next_offset: null,
      note: all.length > ITEMS_CAP ? `First ${ITEMS_CAP} of ${all.length} items; filter by status.` : undefined
    }
  }
})
