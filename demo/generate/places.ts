import type { AreaEntry, FloorEntry, LabelEntry } from '../types.ts'

interface AreaSeed { id: string, name: string, floor: string | null, icon: string, aliases?: string[], labels?: string[] }

export const FLOOR_SEEDS: Array<Omit<FloorEntry, 'created_at' | 'modified_at'>> = [
  { floor_id: 'basement', name: 'Basement', level: -1, icon: 'mdi:home-floor-negative-1', aliases: ['Cellar'] },
  { floor_id: 'ground_floor', name: 'Ground Floor', level: 0, icon: 'mdi:home-floor-0', aliases: ['Downstairs', 'Rez-de-chaussée'] },
  { floor_id: 'premier_etage', name: 'Premier Étage', level: 1, icon: 'mdi:home-floor-1', aliases: ['Upstairs', 'First floor'] }
]

export const AREA_SEEDS: AreaSeed[] = [
  { id: 'living_room', name: 'Living Room', floor: 'ground_floor', icon: 'mdi:sofa', aliases: ['Lounge', 'Salon'] },
  { id: 'kuche', name: 'Küche', floor: 'ground_floor', icon: 'mdi:stove', aliases: ['Kitchen', 'Cuisine'] },
  { id: 'salle_a_manger', name: 'Salle à manger', floor: 'ground_floor', icon: 'mdi:table-chair', aliases: ['Dining room'] },
  { id: 'hallway', name: 'Hallway', floor: 'ground_floor', icon: 'mdi:door', labels: ['security'] },
  { id: 'master_bedroom', name: 'Master Bedroom', floor: 'premier_etage', icon: 'mdi:bed-king' },
  { id: 'chambre_d_elodie', name: "Chambre d'Élodie", floor: 'premier_etage', icon: 'mdi:teddy-bear', aliases: ['Kids room'] },
  { id: 'bathroom', name: 'Bathroom', floor: 'premier_etage', icon: 'mdi:shower' },
  { id: 'office', name: 'Office', floor: 'premier_etage', icon: 'mdi:desk', aliases: ['Study'] },
  { id: 'he_shi', name: '和室', floor: 'premier_etage', icon: 'mdi:tea', aliases: ['Washitsu', 'Tatami room'] },
  { id: 'game_room', name: '🎮 Game Room', floor: 'basement', icon: 'mdi:controller', aliases: ['Games'] },
  { id: 'laundry', name: 'Laundry', floor: 'basement', icon: 'mdi:washing-machine' },
  { id: 'garage', name: 'Garage', floor: 'ground_floor', icon: 'mdi:garage', labels: ['security'] },
  { id: 'garden', name: 'Garden', floor: null, icon: 'mdi:flower', aliases: ['Jardin', 'Backyard'] }
]

export const LABEL_SEEDS: Array<Omit<LabelEntry, 'created_at' | 'modified_at'>> = [
  { label_id: 'security', name: 'Security', color: 'red', icon: 'mdi:shield-home', description: 'Doors, locks and the alarm' },
  { label_id: 'lighting', name: 'Lighting', color: 'amber', icon: 'mdi:lightbulb-group', description: null },
  { label_id: 'energy', name: 'Energy', color: '#2e7d32', icon: 'mdi:lightning-bolt', description: 'Metered devices' },
  { label_id: 'battery_powered', name: 'Battery powered', color: 'indigo', icon: 'mdi:battery', description: null },
  { label_id: 'noel', name: '🎄 Noël', color: 'green', icon: null, description: 'Seasonal decorations' },
  { label_id: 'critical', name: 'Critical', color: 'deep-orange', icon: 'mdi:alert', description: null }
]

export function makeArea (seed: AreaSeed, at: number): AreaEntry {
  return {
    area_id: seed.id,
    name: seed.name,
    floor_id: seed.floor,
    icon: seed.icon,
    aliases: seed.aliases ?? [],
    labels: seed.labels ?? [],
    picture: null,
    humidity_entity_id: null,
    temperature_entity_id: null,
    motion_entity_id: null,
    created_at: at,
    modified_at: at
  }
}

/** Extra rooms for big homes (benchmarks): plain names spread over the floors. */
export function extraAreaSeed (index: number): AreaSeed {
  const floor = FLOOR_SEEDS[index % FLOOR_SEEDS.length]?.floor_id ?? null
  return { id: `room_${index}`, name: `Room ${index}`, floor, icon: 'mdi:door-open' }
}
