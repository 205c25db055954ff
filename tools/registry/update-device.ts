import { z } from 'zod'
import { UserError } from '../../src/errors.ts'
import { UNKNOWN_DEVICE_HINT } from '../../src/ha/registries.ts'
import { nameIssue } from '../../src/policy/input-checks.ts'
import { defineTool } from '../../src/mcp/runtime/define-tool.ts'
import type { RestoreCommand } from '../../src/policy/undo.ts'
import { confirmTokenArg, dryRunArg } from '../_shared/write.ts'
import { checkAreas, checkLabels, stringsArg } from './_lookups.ts'
import { applyListEdit, listEditIds, restoredFlag, runRegistryWrite, type Step } from './_write.ts'

export default defineTool({
  name: 'ha_update_device',
  title: 'Update a device',
  description: 'Change a device\'s name, area, labels or disabled.',
  kind: 'manage',
  category: 'registry',
  everyday: false,
  keywords: {
    en: 'rename device move device to room assign area disable device device name',
    de: 'gerät umbenennen gerät verschieben raum zuweisen bereich deaktivieren',
    fr: 'renommer appareil déplacer appareil pièce assigner zone désactiver',
    es: 'renombrar dispositivo mover dispositivo habitación asignar área desactivar',
    nl: 'apparaat hernoemen apparaat verplaatsen kamer toewijzen ruimte uitschakelen'
  },
  input: z.object({
    device_id: z.string().trim().min(1).max(255).describe('Device id.'),
    name: z.string().trim().max(255).superRefine(nameIssue(255)).nullable().optional().describe('null: default.'),
    area_id: z.string().trim().max(255).nullable().optional().describe('Area id.'),
    follow: z.boolean().default(true).describe('Entities follow the area.'),
    labels: stringsArg().optional().describe('Label ids; +x adds, -x removes.'),
    disabled: z.boolean().optional().describe('Disabled.'),
    dry_run: dryRunArg(),
    confirm_token: confirmTokenArg()
  }),
  async handler (ctx, args) {
    const snapshot = await ctx.ha.registries.snapshot()
    const device = snapshot.devices.get(args.device_id)
    if (!device) throw new UserError('HAMCP_NOT_FOUND', `No device "${args.device_id}".`, UNKNOWN_DEVICE_HINT)
    if (args.name === undefined && args.area_id === undefined && args.labels === undefined && args.disabled === undefined) {
      throw new UserError('HAMCP_INVALID_ARGUMENT', 'Nothing to change.', 'Give name, area_id, labels or disabled.')
    }
    if (typeof args.area_id === 'string') await checkAreas(ctx, [args.area_id])
    if (args.labels) await checkLabels(ctx, listEditIds(args.labels))
    const own = [...snapshot.entities.values()].filter(e => e.device_id === device.id)
    const notes: string[] = []
    const command: RestoreCommand = { type: 'config/device_registry/update', device_id: device.id }
    const back: RestoreCommand = { type: 'config/device_registry/update', device_id: device.id }
    if (args.name !== undefined) { command.name_by_user = args.name; back.name_by_user = device.name_by_user }
    if (args.area_id !== undefined) { command.area_id = args.area_id; back.area_id = device.area_id }
    if (args.labels) { command.labels = applyListEdit(device.labels, args.labels); back.labels = device.labels }
    if (args.disabled !== undefined) {
      command.disabled_by = args.disabled ? 'user' : null
      back.disabled_by = restoredFlag(device.disabled_by, 'disabled_by', notes)
    }
    const steps: Step[] = [{ command, undo: () => [back] }]
    if (args.area_id !== undefined) {
      // Entities without an area of their own follow the device anyway; the others move only when asked,
      // and when not asked, those that followed stay where they are.
      const moving = own.filter(e => args.follow ? e.area_id !== null : e.area_id === null)
      for (const entry of moving) {
        const area = args.follow ? null : snapshot.entityArea(entry.entity_id)
        steps.push({
          command: { type: 'config/entity_registry/update', entity_id: entry.entity_id, area_id: area },
          undo: () => [{ type: 'config/entity_registry/update', entity_id: entry.entity_id, area_id: entry.area_id }]
        })
      }
    }
    return await runRegistryWrite(ctx, {
      tool: ctx.tool,
      domain: 'device_registry',
      service: 'update',
      // Renaming or moving a device renames or moves its entities: each must pass the entity lists.
      entities: own.map(e => e.entity_id).sort(),
      change: { device_id: device.id, name: args.name, area: args.area_id, follow: args.follow, labels: args.labels, disabled: args.disabled },
      steps,
      unrestorable: notes,
      dryRun: args.dry_run,
      confirmToken: args.confirm_token,
      report: { device_id: device.id, entities: own.length },
      basis: { [`device ${device.id} entities`]: own.map(e => e.entity_id).sort().join(', ') || 'none' }
    })
  }
})
