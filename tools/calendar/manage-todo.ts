import { z } from 'zod'
import { UserError } from '../../src/errors.ts'
import { defineTool } from '../../src/mcp/runtime/define-tool.ts'
import { nameArg } from '../../src/policy/input-checks.ts'
import { requireEntity } from '../../src/home/entities.ts'
import { confirmTokenArg, dryRunArg, formatOutcome, guardedWrite } from '../_shared/write.ts'
import { domainEntityArg } from '../_shared/args.ts'

const ACTIONS = {
  add: (item: string) => ({ service: 'add_item', data: { item } }),
  complete: (item: string) => ({ service: 'update_item', data: { item, status: 'completed' } }),
  uncomplete: (item: string) => ({ service: 'update_item', data: { item, status: 'needs_action' } }),
  remove: (item: string) => ({ service: 'remove_item', data: { item } }),
  rename: (item: string, newName: string) => ({ service: 'update_item', data: { item, rename: newName } })
}

export default defineTool({
  name: 'ha_manage_todo',
  title: 'Manage a to-do list',
  description: 'Change one item of a to-do list.',
  kind: 'write',
  category: 'calendar',
  everyday: true,
  keywords: {
    en: 'add to shopping list todo item mark done complete check off remove item buy milk task',
    de: 'auf die einkaufsliste setzen hinzufügen aufgabe erledigt abhaken eintrag entfernen milch kaufen',
    fr: 'ajouter à la liste de courses tâche marquer fait terminé cocher retirer élément acheter du lait',
    es: 'añadir a la lista de la compra tarea marcar hecho completado tachar quitar elemento comprar leche',
    nl: 'toevoegen aan boodschappenlijst taak afvinken gedaan voltooid verwijderen item melk kopen'
  },
  input: z.object({
    entity_id: domainEntityArg('todo'),
    action: z.enum(['add', 'complete', 'uncomplete', 'remove', 'rename']).describe('Action.'),
    item: nameArg().describe('Item text or uid.'),
    new_name: nameArg().optional().describe('New text (rename).'),
    dry_run: dryRunArg(),
    confirm_token: confirmTokenArg()
  }),
  async handler (ctx, args) {
    requireEntity(ctx.home, args.entity_id)
    if (args.action === 'rename' && !args.new_name) throw new UserError('HAMCP_INVALID_ARGUMENT', 'rename needs new_name.', 'Pass new_name with the new item text.')
    const { service, data } = ACTIONS[args.action](args.item, args.new_name ?? '')
    const outcome = await guardedWrite(ctx, {
      kind: 'service',
      tool: ctx.tool,
      domain: 'todo',
      service,
      target: { entity_id: args.entity_id },
      data,
      dryRun: args.dry_run,
      confirmToken: args.confirm_token,
      undoable: false
    })
    return formatOutcome(outcome)
  }
})
