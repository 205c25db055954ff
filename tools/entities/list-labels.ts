import { z } from 'zod'
import { defineTool } from '../../src/mcp/runtime/define-tool.ts'
import { page } from '../../src/shape.ts'

export default defineTool({
  name: 'ha_list_labels',
  title: 'List labels',
  description: 'Labels with description and entity count.',
  kind: 'read',
  category: 'entities',
  everyday: false,
  keywords: {
    en: 'labels tags tagged groups categories',
    de: 'labels etiketten markierungen schlagwörter',
    fr: 'étiquettes labels tags',
    es: 'etiquetas labels',
    nl: 'labels etiketten tags'
  },
  input: z.object({}),
  async handler ({ home }) {
    const registries = home.registries
    const counts = home.counts().label
    const labels = [...registries.labels.values()].sort((a, b) => a.name.localeCompare(b.name)).map(label => {
      const row: Record<string, unknown> = { label_id: label.label_id, name: label.name, entities: counts.get(label.label_id) ?? 0 }
      if (label.description) row.description = label.description
      return row
    })
    return page(labels, 0, labels.length)
  }
})
