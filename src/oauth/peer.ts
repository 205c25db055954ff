import { isIPv6 } from 'node:net'

/**
 * The peer a sign-in cap counts: an IPv4 address as is (an IPv4-mapped IPv6 address as its IPv4), an
 * IPv6 address as its /64, since one device on an IPv6 network may speak from any address in its /64.
 */
export function peerOf (address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address)
  if (mapped) return mapped[1] as string
  if (!isIPv6(address)) return address
  const [head = '', tail] = address.toLowerCase().split('%')[0]!.split('::') as [string, string | undefined]
  const left = head === '' ? [] : head.split(':')
  const right = tail === undefined || tail === '' ? [] : tail.split(':')
  // An embedded IPv4 tail counts as two groups; it only ever sits in the low 64 bits.
  const width = (groups: string[]): number => groups.reduce((n, g) => n + (g.includes('.') ? 2 : 1), 0)
  const groups = tail === undefined ? left : [...left, ...Array<string>(Math.max(0, 8 - width(left) - width(right))).fill('0'), ...right]
  return `${groups.slice(0, 4).map(g => g.replace(/^0+(?=.)/, '')).join(':')}::/64`
}
