// The authorization endpoint is opened by the user's browser, not by Home Assistant: these checks pin
// which address it gets in every situation the Supervisor and Home Assistant can report.
import t from 'tap'
import { primaryAddress, resolveAuthorizationOrigin, type AuthorizationOriginInput } from '../../src/oauth/public-origin.ts'
import { optionsSchema, publicUrlProblem } from '../../src/options.ts'

// /network/info as the Supervisor answers it on a Pi with Ethernet (primary) and an idle Wi-Fi.
const NETWORK_INFO = {
  interfaces: [
    { interface: 'wlan0', type: 'wireless', enabled: true, connected: true, primary: false, mac: 'B8:27:EB:00:00:02', ipv4: { method: 'auto', address: ['192.168.1.77/24'], nameservers: [], gateway: '192.168.1.1', route_metric: null, ready: true }, ipv6: null, wifi: null, vlan: null, mdns: 'announce', llmnr: 'announce' },
    { interface: 'end0', type: 'ethernet', enabled: true, connected: true, primary: true, mac: 'B8:27:EB:00:00:01', ipv4: { method: 'auto', address: ['192.168.1.20/24'], nameservers: ['192.168.1.1'], gateway: '192.168.1.1', route_metric: null, ready: true }, ipv6: { method: 'auto', addr_gen_mode: 'default', ip6_privacy: 'default', address: ['fe80::1234/64', '2001:db8::20/64'], nameservers: [], gateway: null, route_metric: null, ready: true }, wifi: null, vlan: null, mdns: 'announce', llmnr: 'announce' }
  ],
  docker: { interface: 'hassio', address: '172.30.32.0/23', gateway: '172.30.32.1', dns: '172.30.32.3' },
  host_internet: true,
  supervisor_internet: true
}

const base: AuthorizationOriginInput = {
  mode: 'addon',
  publicUrl: '',
  containerPort: 9583,
  hostPort: 9583,
  internalUrl: null,
  networkInfo: NETWORK_INFO,
  // Home Assistant Core reaches the add-on by its internal hostname.
  request: { host: 'local-ha-mcp:9583', protocol: 'http' }
}

t.test('public_url wins over everything, in both modes, as an origin', async (t) => {
  t.same(resolveAuthorizationOrigin({ ...base, publicUrl: 'https://mcp.example.com/' }), { origin: 'https://mcp.example.com', source: 'public_url' })
  t.same(resolveAuthorizationOrigin({ ...base, mode: 'dev', publicUrl: 'http://10.0.0.5:8443' }), { origin: 'http://10.0.0.5:8443', source: 'public_url' })
  t.same(resolveAuthorizationOrigin({ ...base, hostPort: null, publicUrl: 'https://mcp.example.com' }), { origin: 'https://mcp.example.com', source: 'public_url' }, 'a disabled port does not matter behind a proxy')
  t.equal(resolveAuthorizationOrigin({ ...base, publicUrl: 'not a url' }).source, 'network', 'an unparsable value (never past the options schema) is ignored')
  t.equal(resolveAuthorizationOrigin({ ...base, publicUrl: 'ftp://files.example.com' }).source, 'network', 'a non-http scheme is ignored')
})

t.test('dev mode answers with the origin the request came to', async (t) => {
  const dev = { ...base, mode: 'dev' as const, internalUrl: 'http://192.168.1.20:8123' }
  t.same(resolveAuthorizationOrigin({ ...dev, request: { host: '127.0.0.1:9583', protocol: 'http' } }), { origin: 'http://127.0.0.1:9583', source: 'request' })
  t.same(resolveAuthorizationOrigin({ ...dev, request: { host: 'Laptop.LAN:9583', protocol: 'https' } }), { origin: 'https://laptop.lan:9583', source: 'request' })
  t.same(resolveAuthorizationOrigin({ ...dev, request: { host: '[::1]:9583', protocol: 'http' } }), { origin: 'http://[::1]:9583', source: 'request' })
  t.same(resolveAuthorizationOrigin({ ...dev, request: { host: 'evil.com/"><script>', protocol: 'http' } }), { origin: 'http://localhost:9583', source: 'request' }, 'a malformed Host never reaches the metadata')
  t.same(resolveAuthorizationOrigin({ ...dev, request: { host: undefined, protocol: 'http' } }), { origin: 'http://localhost:9583', source: 'request' })
})

t.test('add-on: the host of Home Assistant\'s internal_url, on the published port', async (t) => {
  t.same(resolveAuthorizationOrigin({ ...base, internalUrl: 'http://homeassistant.local:8123' }), { origin: 'http://homeassistant.local:9583', source: 'internal_url' })
  t.same(resolveAuthorizationOrigin({ ...base, internalUrl: 'https://ha.home.arpa', hostPort: 19583 }), { origin: 'http://ha.home.arpa:19583', source: 'internal_url' }, 'the add-on port speaks plain HTTP, on the port the user picked')
  t.same(resolveAuthorizationOrigin({ ...base, internalUrl: 'http://[2001:db8::20]:8123' }), { origin: 'http://[2001:db8::20]:9583', source: 'internal_url' })
})

t.test('add-on: internal_url hosts a browser cannot use fall through to /network/info', async (t) => {
  for (const internalUrl of ['http://homeassistant:8123', 'http://supervisor/core', 'http://172.30.32.1:8123', 'http://localhost:8123', 'http://127.0.0.1:8123', 'https://abcdef.ui.nabu.casa', 'http://local-ha-mcp.local.hass.io', '', 'garbage', null, undefined]) {
    t.same(resolveAuthorizationOrigin({ ...base, internalUrl }), { origin: 'http://192.168.1.20:9583', source: 'network' }, String(internalUrl))
  }
})

t.test('add-on: the primary interface, on the published port', async (t) => {
  t.same(resolveAuthorizationOrigin({ ...base, hostPort: 8000 }), { origin: 'http://192.168.1.20:8000', source: 'network' })
  t.same(resolveAuthorizationOrigin({ ...base, hostPort: undefined }), { origin: 'http://192.168.1.20:9583', source: 'network' }, 'the container port when the Supervisor could not be asked')
})

t.test('primaryAddress: IPv4 of the primary interface, then any usable address', async (t) => {
  t.equal(primaryAddress(NETWORK_INFO), '192.168.1.20')
  const ipv6Only = { interfaces: [{ interface: 'end0', enabled: true, connected: true, primary: true, ipv4: { address: [] }, ipv6: { address: ['fe80::1/64', '2001:db8::20/64'] } }] }
  t.equal(primaryAddress(ipv6Only), '2001:db8::20', 'link-local IPv6 is skipped')
  t.same(resolveAuthorizationOrigin({ ...base, networkInfo: ipv6Only }), { origin: 'http://[2001:db8::20]:9583', source: 'network' }, 'IPv6 is bracketed')
  const noPrimary = { interfaces: [{ interface: 'wlan0', enabled: true, connected: true, primary: false, ipv4: { address: ['10.1.2.3/8'] }, ipv6: null }] }
  t.equal(primaryAddress(noPrimary), '10.1.2.3', 'a connected non-primary interface still helps')
  const down = { interfaces: [{ interface: 'end0', enabled: true, connected: false, primary: true, ipv4: { address: ['192.168.1.20/24'] } }] }
  t.equal(primaryAddress(down), undefined, 'a disconnected interface is not used')
  const linkLocal = { interfaces: [{ interface: 'end0', enabled: true, connected: true, primary: true, ipv4: { address: ['169.254.10.10/16'] }, ipv6: { address: ['fe80::1/64'] } }] }
  t.equal(primaryAddress(linkLocal), undefined)
  for (const junk of [null, undefined, 'x', {}, { interfaces: 'x' }, { interfaces: [null, 1, { ipv4: { address: 'x' } }, { ipv4: { address: [5] } }] }]) {
    t.equal(primaryAddress(junk), undefined, `tolerates ${JSON.stringify(junk)}`)
  }
})

t.test('add-on: nothing usable says why, with the request origin as a last resort', async (t) => {
  t.same(resolveAuthorizationOrigin({ ...base, hostPort: null, internalUrl: 'http://homeassistant.local:8123' }), { origin: 'http://local-ha-mcp:9583', source: 'request', problem: 'port_disabled' })
  t.same(resolveAuthorizationOrigin({ ...base, networkInfo: undefined }), { origin: 'http://local-ha-mcp:9583', source: 'request', problem: 'no_lan_address' })
})

t.test('the public_url option accepts an origin and refuses the rest with a reason', async (t) => {
  for (const good of ['', 'http://192.168.1.20:9583', 'https://mcp.example.com', 'https://mcp.example.com/', 'http://[2001:db8::20]:9583']) {
    t.equal(publicUrlProblem(good), undefined, good)
  }
  for (const [bad, why] of [['mcp.example.com', /not a URL/], ['ftp://x.example.com', /http/], ['https://user:pw@x.example.com', /password/], ['https://x.example.com/mcp', /origin only/], ['https://x.example.com/?a=1', /origin only/], ['https://x.example.com/#top', /origin only/]] as const) {
    t.match(publicUrlProblem(bad), why, bad)
  }
  t.equal(optionsSchema.parse({ public_url: '  https://mcp.example.com  ' }).public_url, 'https://mcp.example.com', 'trimmed')
  t.equal(optionsSchema.parse({}).public_url, '', 'unset by default')
  t.notOk(optionsSchema.safeParse({ public_url: 'https://x.example.com/mcp' }).success, 'a path is refused by the schema')
})
