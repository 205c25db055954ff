import { defineTool } from '../../../src/mcp/runtime/define-tool.ts'
import { manageInput } from './_args.ts'
import { manageBackup } from './_backup.ts'
import { manageCalendar } from './_calendar.ts'
import { manageDashboard } from './_dashboard.ts'
import { manageEnergy } from './_energy.ts'
import { manageScene } from './_scene.ts'

const BY_KIND = { scene: manageScene, calendar: manageCalendar, dashboard: manageDashboard, backup: manageBackup, energy: manageEnergy }

export default defineTool({
  name: 'ha_manage_config',
  title: 'Scenes, events, dashboards, backups, energy',
  description: 'Edit scenes, events, dashboard views/cards (paths: ha_list_dashboards), energy settings; make backups.',
  kind: 'manage',
  category: 'config',
  everyday: false,
  keywords: {
    en: 'scene scenes edit create delete calendar event add appointment backup make a backup dashboard view card remove card move card energy settings configure solar panels grid sources',
    de: 'szene szenen bearbeiten erstellen löschen kalendereintrag termin hinzufügen backup sicherung datensicherung dashboard ansicht karte energieeinstellungen energie konfigurieren quellen',
    fr: 'scène scènes modifier créer supprimer événement rendez vous ajouter sauvegarde faire une sauvegarde tableau de bord vue carte paramètres énergie configurer sources',
    es: 'escena escenas editar crear eliminar evento cita añadir copia de seguridad respaldo hacer copia panel vista tarjeta ajustes de energía configurar fuentes',
    nl: 'scène scènes bewerken maken verwijderen afspraak agenda toevoegen back-up reservekopie maken dashboard weergave kaart energie-instellingen energie configureren bronnen'
  },
  input: manageInput,
  async handler (ctx, args) {
    return await BY_KIND[args.kind](ctx, args)
  }
})
