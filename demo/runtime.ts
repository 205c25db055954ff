import type { House } from './house.ts'
import type { Services } from './services/index.ts'
import type { Connection } from './ws/connection.ts'

import type { OverviewEra } from './lovelace.ts'
import type { SupervisorRole } from './supervisor.ts'

export interface ResolvedOptions {
  entities: number
  seed: number
  token: string
  supervisorToken: string
  port: number
  host: string
  haVersion: string
  authTimeoutMs: number
  supervisorRole: SupervisorRole
  overview: OverviewEra
  backupsDaysUntilStale: number
  admin: boolean
}

export interface Faults {
  refuseAuth: number
  delayMs: number
  /** While set, the WebSocket commands of type `what` and the HTTP requests whose path starts with it wait for `gate`, calling `arrived` first. */
  hold?: { what: string, gate: Promise<void>, arrived: () => void } | undefined
  wsDown: boolean
  supervisorFailures: number
  supervisorStatus: number
}

/** What the Supervisor and Core report about where the house is reachable; tests change it. */
export interface NetworkFacts {
  /** Core's internal_url (get_config); null, as on most installs, until the user sets it. */
  internalUrl: string | null
  /** The host port published for the add-on's 9583/tcp (/addons/self/info `network`); null = disabled. */
  hostPort: number | null
  /** The primary interface's IPv4 address (/network/info). */
  lanAddress: string
}

/** Everything a request handler needs: the house, its services, the options and the injected faults. */
export interface Runtime {
  house: House
  services: Services
  options: ResolvedOptions
  faults: Faults
  connections: Set<Connection>
  addonOptions: Record<string, unknown>
  discoveries: Array<Record<string, unknown>>
  network: NetworkFacts
}
