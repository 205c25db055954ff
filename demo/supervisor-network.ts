import type { Runtime } from './runtime.ts'

/**
 * GET /network/info as the Supervisor answers it (supervisor/api/network.py): every host interface with
 * its IPv4/IPv6 settings, the Docker network add-ons live on, and connectivity. The demo host has wired
 * Ethernet (primary, the LAN address) and a Wi-Fi card that is not connected.
 */
export function networkInfo (rt: Runtime): Record<string, unknown> {
  return {
    interfaces: [primaryInterface(rt), wifiInterface()],
    docker: { interface: 'hassio', address: '172.30.32.0/23', gateway: '172.30.32.1', dns: '172.30.32.3' },
    host_internet: true,
    supervisor_internet: true
  }
}

/** GET /network/interface/<name>/info; `default` is the primary one. */
export function interfaceInfo (rt: Runtime, name: string): Record<string, unknown> | undefined {
  if (name === 'default' || name === 'end0') return primaryInterface(rt)
  if (name === 'wlan0') return wifiInterface()
  return undefined
}

function primaryInterface (rt: Runtime): Record<string, unknown> {
  const gateway = rt.network.lanAddress.replace(/\.\d+$/, '.1')
  return {
    interface: 'end0',
    type: 'ethernet',
    enabled: true,
    connected: true,
    primary: true,
    mac: '02:42:AC:11:00:14',
    ipv4: { method: 'auto', address: [`${rt.network.lanAddress}/24`], nameservers: [gateway], gateway, route_metric: null, ready: true },
    ipv6: { method: 'auto', addr_gen_mode: 'default', ip6_privacy: 'default', address: ['fe80::42:acff:fe11:14/64'], nameservers: [], gateway: null, route_metric: null, ready: true },
    wifi: null,
    vlan: null,
    mdns: 'announce',
    llmnr: 'announce'
  }
}

function wifiInterface (): Record<string, unknown> {
  return {
    interface: 'wlan0',
    type: 'wireless',
    enabled: false,
    connected: false,
    primary: false,
    mac: '02:42:AC:11:00:15',
    ipv4: null,
    ipv6: null,
    wifi: null,
    vlan: null,
    mdns: 'default',
    llmnr: 'default'
  }
}
