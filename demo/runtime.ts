import type { House } from './house.ts'
import type { Services } from './services/index.ts'
import type { Connection } from './ws/connection.ts'

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
}

export interface Faults {
  refuseAuth: number
  delayMs: number
  wsDown: boolean
  supervisorFailures: number
  supervisorStatus: number
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
}
