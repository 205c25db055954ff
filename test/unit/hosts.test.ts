// Every host, origin and network rule of src/hosts.ts over one table of the hosts a client can send:
// with and without a port, IPv6 in brackets, upper case, a trailing dot, loopback names and the
// Supervisor's addresses. Each row says what each caller decides for it.
import t from 'tap'
import {
  clientKey, hostName, inSupervisorNetwork, isLoopback, isLoopbackAddress, isOwnHost, mcpUrlFor, originAllowed, ownNames, parseAuthority,
  publishedPort, reachableFromLan, rebindingRefusal, requestOrigin, sameAuthority, urlHost
} from '../../src/hosts.ts'

interface Row {
  /** The Host header as sent. */
  host: string
  /** The comparable name, or null when no client could have sent this Host. */
  name: string | null
  /** The origin the OAuth metadata is built on (requestOrigin without public_url). */
  origin?: string
  loopback?: boolean
  supervisor?: boolean
  /** Whether a LAN client reaches the add-on's port there, in the add-on and outside it. */
  lan?: { addon: boolean, dev: boolean }
  /** The MCP URL shown on the ingress page for this Host, in the add-on (port 9583). */
  mcpUrl?: string
  /** The status page's rebinding defence outside the add-on (the machine is called "laptop"). */
  own?: boolean
}

const HA_IP = 'http://HA_IP:9583/mcp'
const ROWS: Row[] = [
  // Names, as typed by people: case and a trailing dot do not make another host.
  { host: 'homeassistant.local:8123', name: 'homeassistant.local', origin: 'http://homeassistant.local:8123', loopback: false, supervisor: false, lan: { addon: true, dev: true }, mcpUrl: 'http://homeassistant.local:9583/mcp', own: false },
  { host: 'HomeAssistant.LOCAL:8123', name: 'homeassistant.local', origin: 'http://homeassistant.local:8123', mcpUrl: 'http://homeassistant.local:9583/mcp' },
  { host: 'homeassistant.local.:8123', name: 'homeassistant.local', origin: 'http://homeassistant.local.:8123', mcpUrl: 'http://homeassistant.local:9583/mcp' },
  { host: 'ha.example.com', name: 'ha.example.com', origin: 'http://ha.example.com', lan: { addon: true, dev: true }, own: false },
  { host: 'laptop', name: 'laptop', own: true },
  { host: 'LAPTOP.local.', name: 'laptop.local', own: true },
  // Loopback: names and addresses, as the container (add-on) or this machine (dev).
  { host: 'localhost:9583', name: 'localhost', origin: 'http://localhost:9583', loopback: true, lan: { addon: false, dev: true }, mcpUrl: HA_IP, own: true },
  { host: 'LOCALHOST.', name: 'localhost', loopback: true, own: true },
  { host: 'app.localhost:9584', name: 'app.localhost', loopback: true, lan: { addon: false, dev: true }, own: true },
  { host: '127.0.0.1:9584', name: '127.0.0.1', origin: 'http://127.0.0.1:9584', loopback: true, lan: { addon: false, dev: true }, mcpUrl: HA_IP, own: true },
  { host: '127.0.1.1', name: '127.0.1.1', loopback: true, mcpUrl: HA_IP },
  { host: '2130706433:9583', name: '127.0.0.1', loopback: true, mcpUrl: HA_IP, own: true },
  { host: '[::1]:9583', name: '::1', origin: 'http://[::1]:9583', loopback: true, lan: { addon: false, dev: true }, mcpUrl: HA_IP, own: true },
  { host: '[::ffff:127.0.0.1]', name: '::ffff:7f00:1', loopback: true, mcpUrl: HA_IP },
  // The Supervisor's network (172.30.32.0/23 and fd0c:ac1e:2100::/48) and its names.
  { host: '172.30.32.2:9584', name: '172.30.32.2', loopback: false, supervisor: true, lan: { addon: false, dev: false }, mcpUrl: HA_IP, own: true },
  { host: '172.30.33.5', name: '172.30.33.5', supervisor: true, mcpUrl: HA_IP },
  { host: '172.30.1.10:8123', name: '172.30.1.10', supervisor: false, lan: { addon: true, dev: true }, mcpUrl: 'http://172.30.1.10:9583/mcp' },
  { host: '172.30.34.1', name: '172.30.34.1', supervisor: false, mcpUrl: 'http://172.30.34.1:9583/mcp' },
  { host: '[fd0c:ac1e:2100::5]', name: 'fd0c:ac1e:2100::5', supervisor: true, mcpUrl: HA_IP },
  { host: 'homeassistant:8123', name: 'homeassistant', origin: 'http://homeassistant:8123', lan: { addon: false, dev: false }, mcpUrl: HA_IP, own: false },
  { host: 'supervisor', name: 'supervisor', mcpUrl: HA_IP },
  { host: 'hassio', name: 'hassio', mcpUrl: HA_IP },
  { host: 'local-ha-mcp:9583', name: 'local-ha-mcp', origin: 'http://local-ha-mcp:9583', lan: { addon: true, dev: true } },
  { host: 'local-ha-mcp.local.hass.io:9583', name: 'local-ha-mcp.local.hass.io', mcpUrl: HA_IP },
  { host: 'abcdef.ui.nabu.casa', name: 'abcdef.ui.nabu.casa', lan: { addon: false, dev: false }, mcpUrl: HA_IP },
  // LAN addresses, IPv6 in brackets, canonical.
  { host: '192.168.1.20:8123', name: '192.168.1.20', origin: 'http://192.168.1.20:8123', loopback: false, supervisor: false, lan: { addon: true, dev: true }, mcpUrl: 'http://192.168.1.20:9583/mcp', own: true },
  { host: '[FD00::5]:8123', name: 'fd00::5', origin: 'http://[fd00::5]:8123', lan: { addon: true, dev: true }, mcpUrl: 'http://[fd00::5]:9583/mcp', own: true },
  { host: '[2001:db8:0:0::20]', name: '2001:db8::20', mcpUrl: 'http://[2001:db8::20]:9583/mcp' },
  { host: '[fe80::1]', name: 'fe80::1', lan: { addon: false, dev: false }, mcpUrl: HA_IP },
  { host: '0.0.0.0:9583', name: '0.0.0.0', lan: { addon: false, dev: false }, mcpUrl: HA_IP },
  // What no client sends: refused by every caller.
  { host: '', name: null, origin: undefined, mcpUrl: HA_IP, own: false },
  { host: 'evil.com/"><script>', name: null, origin: undefined, mcpUrl: HA_IP, own: false },
  { host: 'evil.com:99999', name: null, origin: undefined, own: false },
  { host: 'evil.com:', name: null, origin: undefined },
  { host: 'a..b', name: null },
  { host: 'fd00::5', name: null, mcpUrl: HA_IP },
  { host: '[fe80::1%25eth0]', name: null },
  { host: '999.1.1.1', name: null },
  { host: 'user@evil.com', name: null, own: false }
]

const names = ownNames('Laptop')

t.test('the table', async t => {
  for (const row of ROWS) {
    const label = JSON.stringify(row.host)
    t.equal(parseAuthority(row.host)?.name ?? null, row.name, `${label}: name`)
    if ('origin' in row) t.equal(requestOrigin(row.host), row.origin, `${label}: origin`)
    if (row.name === null) continue
    if (row.loopback !== undefined) t.equal(isLoopback(row.name), row.loopback, `${label}: loopback`)
    if (row.supervisor !== undefined) t.equal(inSupervisorNetwork(row.name), row.supervisor, `${label}: Supervisor network`)
    if (row.lan) t.same({ addon: reachableFromLan(row.name, { addonMode: true }), dev: reachableFromLan(row.name, { addonMode: false }) }, row.lan, `${label}: reachable from the LAN`)
    if (row.own !== undefined) t.equal(isOwnHost(row.host, names), row.own, `${label}: this machine`)
  }
  for (const row of ROWS.filter(r => r.mcpUrl !== undefined)) {
    t.equal(mcpUrlFor({ host: row.host }, 9583, true), row.mcpUrl, `${JSON.stringify(row.host)}: MCP URL`)
  }
  for (const row of ROWS.filter(r => r.own !== undefined && r.name === null)) {
    t.equal(isOwnHost(row.host, names), false, `${JSON.stringify(row.host)}: not this machine`)
  }
})

t.test('bare hosts and addresses (URL hostnames, the Supervisor\'s /network/info) read the same way', async t => {
  t.equal(hostName('2001:DB8::20'), '2001:db8::20')
  t.equal(hostName('[2001:db8::20]'), '2001:db8::20')
  t.equal(hostName('HA.local.'), 'ha.local')
  t.equal(hostName('ha.local:8123'), undefined, 'a port is not part of a host')
  t.equal(hostName('garbage host'), undefined)
})

t.test('peer socket addresses on loopback', async t => {
  for (const address of ['127.0.0.1', '127.0.0.2', '::1', '::ffff:127.0.0.1']) t.ok(isLoopbackAddress(address), address)
  for (const address of ['172.30.32.2', '192.168.1.20', '::ffff:192.168.1.20', 'localhost', '']) t.notOk(isLoopbackAddress(address), address)
})

t.test('forwarded headers: X-Forwarded-Host (first value) wins over Host on the ingress page', async t => {
  t.equal(mcpUrlFor({ 'x-forwarded-host': 'homeassistant.local:8123, proxy', host: '172.30.32.2:9584' }, 9583, true), 'http://homeassistant.local:9583/mcp')
  t.equal(mcpUrlFor({ 'x-forwarded-host': ['192.168.1.20:8123', 'x'], host: 'x' }, 19583, true), 'http://192.168.1.20:19583/mcp')
  t.equal(mcpUrlFor({ 'x-forwarded-host': 'abcdef.ui.nabu.casa' }, 9583, true), HA_IP, 'the cloud URL does not reach the add-on port')
  t.equal(mcpUrlFor({}, 9583, true), HA_IP)
  t.equal(mcpUrlFor({ host: '127.0.0.1:9584' }, 9583, false), 'http://127.0.0.1:9583/mcp', 'outside the add-on loopback is where a local client finds the server')
})

t.test('public_url: behind a TLS proxy the origin is the proxy\'s when the Host is its host and port', async t => {
  t.equal(requestOrigin('mcp.example.com', 'https://mcp.example.com'), 'https://mcp.example.com')
  t.equal(requestOrigin('MCP.example.com:443', 'https://mcp.example.com/'), 'https://mcp.example.com', 'the default port spelled out')
  t.equal(requestOrigin('mcp.example.com:8443', 'https://mcp.example.com'), 'http://mcp.example.com:8443', 'another port is another origin')
  t.equal(requestOrigin('local-ha-mcp:9583', 'https://mcp.example.com'), 'http://local-ha-mcp:9583', 'Home Assistant Core on the internal name')
  t.equal(requestOrigin('laptop.lan:9583', undefined, 'https'), 'https://laptop.lan:9583')
})

t.test('a token bound to a resource works on that host and port only', async t => {
  t.ok(sameAuthority('http://192.168.1.20:9583/mcp', '192.168.1.20:9583'))
  t.ok(sameAuthority('http://HA.local:9583/mcp', 'ha.local.:9583'), 'case and a trailing dot')
  t.ok(sameAuthority('http://[FD00::5]:9583/mcp', '[fd00:0::5]:9583'), 'IPv6 in any spelling')
  t.ok(sameAuthority('https://mcp.example.com/mcp', 'mcp.example.com'), 'the default port')
  t.ok(sameAuthority('http://ha.local/mcp', 'ha.local:80'))
  t.notOk(sameAuthority('http://192.168.1.20:9583/mcp', '192.168.1.20:9584'), 'another port')
  t.notOk(sameAuthority('http://192.168.1.20:9583/mcp', '192.168.1.21:9583'), 'another host')
  t.notOk(sameAuthority('http://192.168.1.20:9583/mcp', undefined))
  t.notOk(sameAuthority('not a url', '192.168.1.20:9583'))
})

t.test('the Origin check of /mcp: loopback, or exactly the host asked for by address or mDNS name', async t => {
  const cases: Array<[string, string | undefined, boolean]> = [
    ['http://localhost:3000', 'anything.example:9583', true],
    ['http://127.0.0.1:6274', '192.168.1.20:9583', true],
    ['http://[::1]:6274', '[::1]:9583', true],
    ['http://app.localhost', 'ha.local:9583', true],
    ['http://192.168.1.20:8123', '192.168.1.20:9583', true],
    ['http://192.168.1.20', '192.168.1.21:9583', false],
    ['http://[fd00::5]:8123', '[FD00:0::5]:9583', true],
    ['http://homeassistant.local:8123', 'HomeAssistant.local.:9583', true],
    ['http://homeassistant:8123', 'homeassistant:9583', true],
    ['http://evil.example', 'evil.example:9583', false],
    ['http://evil.example', '192.168.1.20:9583', false],
    ['http://172.30.32.1', undefined, false],
    ['null', '192.168.1.20:9583', false],
    ['not a url', '192.168.1.20:9583', false]
  ]
  for (const [origin, host, allowed] of cases) t.equal(originAllowed(origin, host), allowed, `${origin} to ${String(host)}`)
})

t.test('the status page\'s rebinding defence: Host, then Origin', async t => {
  t.equal(rebindingRefusal({ host: 'localhost:9584' }, names), undefined)
  t.equal(rebindingRefusal({ host: 'localhost:9584', origin: 'http://localhost:9584' }, names), undefined)
  t.match(rebindingRefusal({ host: 'evil.example:9584' }, names), /Host "evil.example:9584" is not this machine/)
  t.match(rebindingRefusal({ host: 'localhost:9584', origin: 'http://evil.example' }, names), /foreign/)
  t.match(rebindingRefusal({ host: 'localhost:9584', origin: 'null' }, names), /not a URL/)
  t.match(rebindingRefusal({}, names), /Host "" is not this machine/)
})

t.test('the published MCP port from the Supervisor\'s add-on info', async t => {
  t.same(publishedPort({ '9583/tcp': 19583 }, 9583), { port: 19583, fromSupervisor: true })
  t.same(publishedPort({ '9583/tcp': null }, 9583), { port: null, fromSupervisor: true }, 'disabled by the user')
  t.same(publishedPort({}, 9583), { port: 9583, fromSupervisor: false })
  t.same(publishedPort(null, 9583), { port: 9583, fromSupervisor: false })
})

t.test('the host a URL names: the site with its port, and the bare name DNS and TLS take', async t => {
  const cases: Array<[string, { authority: string, hostname: string } | undefined]> = [
    ['https://App.Example/client.json', { authority: 'app.example', hostname: 'app.example' }],
    ['https://app.example:8443/c', { authority: 'app.example:8443', hostname: 'app.example' }],
    ['https://app.example:443/c', { authority: 'app.example', hostname: 'app.example' }],
    ['https://[2001:DB8::1]:8443/c', { authority: '[2001:db8::1]:8443', hostname: '2001:db8::1' }],
    ['https://xn--bcher-kva.example/c', { authority: 'xn--bcher-kva.example', hostname: 'xn--bcher-kva.example' }],
    ['https://bücher.example/c', { authority: 'xn--bcher-kva.example', hostname: 'xn--bcher-kva.example' }],
    ['not a url', undefined]
  ]
  for (const [url, host] of cases) t.same(urlHost(url), host, url)
})

t.test('clientKey: the one rule for which client a request comes from', async t => {
  const rows: Array<[string | undefined, string]> = [
    ['192.168.1.5', '192.168.1.5'],
    ['::ffff:192.168.1.5', '192.168.1.5'],
    ['::FFFF:192.168.1.5', '192.168.1.5'],
    ['::ffff:c0a8:105', '192.168.1.5'],
    ['2001:db8:1:2::a', '2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002:ffff:0:0:1', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::1.2.3.4', '2001:db8:1:2::/64'],
    ['2001:db8:1:3::a', '2001:db8:1:3::/64'],
    ['fe80::1%eth0', 'fe80::/64'],
    ['fe80::2%eth1', 'fe80::/64'],
    ['::1', '::/64'],
    ['::', '::/64'],
    // Not an address (a socket gone, or something no socket gives): counted as it is, never an error.
    [undefined, ''],
    ['', ''],
    ['not an address', 'not an address'],
    ['::ffff:zz', '::ffff:zz'],
    [`${'1:'.repeat(200)}1`, `${'1:'.repeat(200)}1`]
  ]
  for (const [ip, key] of rows) t.equal(clientKey({ ip }), key, `${String(ip)} counts as ${key}`)
})
