import { createHash } from 'node:crypto'
import { createRng, epochSeconds, hexId, isoTime, slugify, ulid } from '../util.ts'
import type { DeviceEntry, EntityEntry, HassState } from '../types.ts'
import type { ConfigEntryDef } from './home-types.ts'
import type { EntitySpec, HistoryProfile } from './profiles.ts'

export interface DeviceInput {
  name: string
  manufacturer: string
  model: string
  platform: string
  areaId: string | null
  viaDeviceId?: string | null
  parentDeviceId?: string | null
  labels?: string[]
  entryType?: string | null
}

export interface EntityExtras {
  areaId?: string | null
  aliases?: Array<string | null>
  labels?: string[]
  hiddenBy?: string | null
  disabledBy?: string | null
  objectId?: string
  platform?: string
  /** The registry unique_id when the integration sets it (a script's is its key, as in Home Assistant). */
  uniqueId?: string
}

/** Accumulates registries and states; guarantees unique entity ids and stable ids from the seed. */
export class HomeBuilder {
  readonly rng: () => number
  readonly startMs: number
  readonly ownerUserId: string
  readonly devices: DeviceEntry[] = []
  readonly entities: EntityEntry[] = []
  readonly states: HassState[] = []
  readonly profiles = new Map<string, HistoryProfile>()
  readonly configEntries = new Map<string, ConfigEntryDef>()
  private readonly usedIds = new Set<string>()
  private readonly createdAt: number

  constructor (seed: number, startMs: number) {
    this.rng = createRng(seed)
    this.startMs = startMs
    this.ownerUserId = hexId(this.rng)
    this.createdAt = epochSeconds(startMs - 90 * 86_400_000)
  }

  configEntry (domain: string): string {
    const existing = this.configEntries.get(domain)
    if (existing !== undefined) return existing.entry_id
    const entryId = ulid(this.startMs - 120 * 86_400_000, this.rng)
    this.configEntries.set(domain, { entry_id: entryId, domain, title: domain.charAt(0).toUpperCase() + domain.slice(1) })
    return entryId
  }

  addDevice (input: DeviceInput): DeviceEntry {
    const id = hexId(this.rng)
    const device: DeviceEntry = {
      id,
      name: input.name,
      name_by_user: null,
      manufacturer: input.manufacturer,
      model: input.model,
      model_id: null,
      sw_version: `${1 + Math.floor(this.rng() * 4)}.${Math.floor(this.rng() * 20)}.${Math.floor(this.rng() * 10)}`,
      hw_version: null,
      serial_number: input.parentDeviceId == null ? hexId(this.rng, 12).toUpperCase() : null,
      area_id: input.areaId,
      labels: input.labels ?? [],
      via_device_id: input.viaDeviceId ?? null,
      parent_device_id: input.parentDeviceId ?? null,
      config_entry_id: this.configEntry(input.platform),
      disabled_by: null,
      entry_type: input.entryType ?? null,
      identifiers: [[input.platform, hexId(this.rng, 12)]],
      connections: input.platform === 'shelly' || input.platform === 'sonos' ? [['mac', macAddress(this.rng)]] : [],
      configuration_url: null,
      created_at: this.createdAt,
      modified_at: this.createdAt
    }
    this.devices.push(device)
    return device
  }

  uniqueEntityId (domain: string, objectId: string): string {
    let candidate = `${domain}.${objectId}`
    let n = 2
    while (this.usedIds.has(candidate)) candidate = `${domain}.${objectId}_${n++}`
    this.usedIds.add(candidate)
    return candidate
  }

  /** Adds the registry entry and (unless disabled) the state for one entity. */
  addEntity (spec: EntitySpec, device: DeviceEntry | null, extras: EntityExtras = {}): string {
    const base = extras.objectId ?? slugify([device?.name, spec.key === '' ? '' : spec.name ?? spec.key].filter(Boolean).join(' '))
    const entityId = this.uniqueEntityId(spec.domain, base)
    const platform = extras.platform ?? (device === null ? spec.domain : platformOf(this, device))
    const friendly = device === null ? (spec.name ?? base) : spec.name === null ? device.name : `${device.name} ${spec.name}`
    const id = hexId(this.rng)
    // Drawn even when given, so the rest of the seeded home stays the same.
    const drawnUniqueId = `${platform}_${hexId(this.rng, 10)}`
    const entry: EntityEntry = {
      entity_id: entityId,
      id,
      unique_id: extras.uniqueId ?? drawnUniqueId,
      platform,
      config_entry_id: device?.config_entry_id ?? null,
      device_id: device?.id ?? null,
      area_id: extras.areaId ?? null,
      name: null,
      original_name: device === null ? friendly : spec.name,
      icon: null,
      original_icon: spec.icon ?? null,
      aliases: extras.aliases ?? [],
      labels: extras.labels ?? [],
      disabled_by: extras.disabledBy ?? null,
      hidden_by: extras.hiddenBy ?? null,
      entity_category: spec.entityCategory ?? null,
      has_entity_name: device !== null,
      device_class: null,
      original_device_class: spec.deviceClass ?? null,
      translation_key: null,
      categories: {},
      options: { conversation: { should_expose: spec.entityCategory === undefined } },
      capabilities: null,
      created_at: this.createdAt,
      modified_at: this.createdAt
    }
    this.entities.push(entry)
    this.profiles.set(entityId, spec.profile)
    if (entry.disabled_by !== null) return entityId
    const changedMs = this.startMs - Math.floor(this.rng() * 6 * 3_600_000) - 1000
    const time = isoTime(changedMs)
    // Cameras carry a per-entity access token, and their picture URL embeds it, as in HA.
    const camera = spec.domain === 'camera' ? cameraToken(entityId) : undefined
    this.states.push({
      entity_id: entityId,
      state: spec.state,
      attributes: { ...spec.attributes, ...(camera === undefined ? {} : { access_token: camera, entity_picture: `/api/camera_proxy/${entityId}?token=${camera}` }), ...(spec.icon === undefined ? {} : { icon: spec.icon }), friendly_name: friendly },
      last_changed: time,
      last_reported: time,
      last_updated: time,
      context: { id: ulid(changedMs, this.rng), parent_id: null, user_id: null }
    })
    return entityId
  }
}

function platformOf (builder: HomeBuilder, device: DeviceEntry): string {
  for (const entry of builder.configEntries.values()) if (entry.entry_id === device.config_entry_id) return entry.domain
  return 'demo'
}

function macAddress (rng: () => number): string {
  return Array.from({ length: 6 }, () => Math.floor(rng() * 256).toString(16).padStart(2, '0')).join(':')
}

/** A camera's access token: 64 hex characters like HA's, stable per entity so runs are reproducible. */
export function cameraToken (entityId: string): string {
  return createHash('sha256').update(`camera-token:${entityId}`).digest('hex')
}
