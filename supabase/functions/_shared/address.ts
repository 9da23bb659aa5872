// Which network addresses the link checker may connect to (SSRF guard; docs/decisions/0131).
// Pure code (no Deno APIs): the unit tests import it under Node.
//
// Public means: in no block of the IANA special-purpose registries (IPv4 and IPv6; the table
// with each block's RFC is special-addresses.ts), not multicast, and for IPv6 inside global
// unicast 2000::/3. Refused therefore: loopback, private (RFC 1918, shared 100.64/10, ULA),
// link-local (169.254/16 incl. the cloud metadata address, fe80::/10), documentation,
// benchmarking, Teredo, ORCHID, anycast services and the rest. IPv6 translation prefixes carry an
// IPv4 address, which is judged too: mapped ::ffff:0:0/96, SIIT ::ffff:0:0:0/96, NAT64
// 64:ff9b::/96 and 6to4 2002::/16 are as public as the IPv4 inside; local-use NAT64
// 64:ff9b:1::/48 and the deprecated IPv4-compatible ::/96 are refused whatever they carry.
// Loopback alone can be allowed (the local stack's tests).
import {
  IPV4_SPECIAL,
  IPV6_GLOBAL_UNICAST,
  IPV6_SPECIAL,
  type AddressClass,
  type SpecialBlock,
} from './special-addresses.ts';

export type { AddressClass, SpecialBlock };

/**
 * An IPv4 address in any form inet_aton accepts (what some resolvers and old URL parsers
 * take): dotted with 1-4 parts, each decimal, octal (leading 0) or hex (0x). Null if not one.
 */
export function parseIPv4(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length === 0 || parts.length > 4) return null;
  const nums: number[] = [];
  for (const part of parts) {
    let n: number;
    if (/^0x[0-9a-f]*$/i.test(part)) n = part.length === 2 ? 0 : parseInt(part.slice(2), 16);
    else if (/^0[0-7]+$/.test(part)) n = parseInt(part.slice(1), 8);
    else if (/^(0|[1-9][0-9]*)$/.test(part)) n = Number(part);
    else return null;
    if (!Number.isSafeInteger(n)) return null;
    nums.push(n);
  }
  // The last part fills the remaining bytes (a.b.c.d, a.b.cd, a.bcd, abcd).
  const last = nums.pop()!;
  if (nums.some((n) => n > 255) || last >= 256 ** (4 - nums.length)) return null;
  const bytes = [...nums];
  for (let i = 3 - nums.length; i >= 0; i--) bytes.push(Math.floor(last / 256 ** i) % 256);
  return bytes;
}

/** The 16 bytes of an IPv6 address (brackets, zone ids and embedded IPv4 allowed), or null. */
export function parseIPv6(text: string): number[] | null {
  let s = text.replace(/^\[|\]$/g, '');
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  if (!s.includes(':')) return null;
  // An embedded IPv4 tail (::ffff:127.0.0.1) becomes its two hex groups.
  const lastColon = s.lastIndexOf(':');
  const v4Text = s.slice(lastColon + 1);
  if (v4Text.includes('.')) {
    if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(v4Text)) return null;
    const v4 = v4Text.split('.').map(Number);
    if (v4.some((n) => n > 255)) return null;
    const hex = (hi: number, lo: number) => ((hi << 8) | lo).toString(16);
    s = `${s.slice(0, lastColon + 1)}${hex(v4[0]!, v4[1]!)}:${hex(v4[2]!, v4[3]!)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const toGroups = (h: string): number[] | null => {
    if (h === '') return [];
    const out: number[] = [];
    for (const g of h.split(':')) {
      if (!/^[0-9a-f]{1,4}$/i.test(g)) return null;
      out.push(parseInt(g, 16));
    }
    return out;
  };
  const head = toGroups(halves[0]!);
  const rest = halves.length === 2 ? toGroups(halves[1]!) : [];
  if (!head || !rest) return null;
  const known = head.length + rest.length;
  let groups: number[];
  if (halves.length === 2) {
    if (known > 7) return null;
    groups = [...head, ...new Array<number>(8 - known).fill(0), ...rest];
  } else {
    if (known !== 8) return null;
    groups = head;
  }
  return groups.flatMap((g) => [g >> 8, g & 255]);
}

interface Compiled {
  row: SpecialBlock;
  net: number[];
  bits: number;
}

function compile(rows: readonly SpecialBlock[], parse: (t: string) => number[] | null) {
  return rows.map((row): Compiled => {
    const [net, bits] = row.block.split('/');
    const bytes = parse(net!);
    if (!bytes) throw new Error(`special-addresses: bad block ${row.block}`);
    return { row, net: bytes, bits: Number(bits) };
  });
}
const V4 = compile(IPV4_SPECIAL, parseIPv4);
const V6 = compile(IPV6_SPECIAL, parseIPv6);
const GLOBAL_UNICAST = compile(
  [{ block: IPV6_GLOBAL_UNICAST, name: 'Global Unicast', rfc: 'RFC 4291', kind: 'reserved' }],
  parseIPv6,
)[0]!;

/** Whether the first `bits` bits of `b` equal those of `net`. */
export function inPrefix(b: number[], net: number[], bits: number): boolean {
  for (let i = 0; i * 8 < bits; i++) {
    const take = Math.min(8, bits - i * 8);
    const mask = (0xff << (8 - take)) & 0xff;
    if ((b[i]! & mask) !== (net[i]! & mask)) return false;
  }
  return true;
}

/** What the guard makes of an address: its class and the block that decided it. */
export interface Verdict {
  kind: AddressClass;
  /** The special-purpose block the address (or the IPv4 address inside it) is in. */
  block: SpecialBlock | null;
  /** The IPv6 translation prefix that carried the IPv4 address judged. */
  via?: SpecialBlock;
}

export function judgeIPv4(b: number[]): Verdict {
  for (const { row, net, bits } of V4)
    if (inPrefix(b, net, bits)) return { kind: row.kind, block: row };
  return { kind: 'public', block: null };
}

export function judgeIPv6(b: number[]): Verdict {
  for (const { row, net, bits } of V6) {
    if (!inPrefix(b, net, bits)) continue;
    if (row.ipv4At !== undefined) {
      // A translation prefix: the IPv4 address inside is judged first (64:ff9b:1::a9fe:a9fe is
      // the metadata address where a local translator runs).
      const inner = judgeIPv4(b.slice(row.ipv4At, row.ipv4At + 4));
      if (inner.kind !== 'public') return { ...inner, via: row };
      if (row.judgedByIPv4) return { kind: 'public', block: null, via: row };
    }
    return { kind: row.kind, block: row };
  }
  if (!inPrefix(b, GLOBAL_UNICAST.net, GLOBAL_UNICAST.bits))
    return { kind: 'reserved', block: null };
  return { kind: 'public', block: null };
}

export const classifyIPv4 = (b: number[]): AddressClass => judgeIPv4(b).kind;
export const classifyIPv6 = (b: number[]): AddressClass => judgeIPv6(b).kind;

/** The class of an IP address literal (IPv4 in any inet_aton form, or IPv6); null if not one. */
export function classifyAddress(text: string): AddressClass | null {
  const v4 = parseIPv4(text);
  if (v4) return classifyIPv4(v4);
  const v6 = parseIPv6(text);
  if (v6) return classifyIPv6(v6);
  return null;
}

export interface TargetPolicy {
  /** Allow 127/8 and ::1 (the local stack's test harness only; never on hosted). */
  allowLoopback: boolean;
}

/** Why the checker must not connect to `address` (an IP literal), or null when it may. */
export function refusal(address: string, policy: TargetPolicy): string | null {
  const kind = classifyAddress(address);
  if (kind === null) return `refused: not an IP address (${address})`;
  if (kind === 'public') return null;
  if (kind === 'loopback' && policy.allowLoopback) return null;
  return `refused: ${kind} address (${address})`;
}

/**
 * Host names that must never be looked up in DNS: `localhost` and `*.localhost` are loopback
 * (RFC 6761), whatever a resolver says.
 */
export function isLocalhostName(host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return h === 'localhost' || h.endsWith('.localhost');
}

/** The URL's host without IPv6 brackets (what resolving and classifying take). */
export function bareHost(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/**
 * "Another site": another host name, ignoring letter case, a leading "www." and the scheme
 * (http -> https on the same host is the same site), or another port. Decided in 0130.
 */
export function siteOf(url: URL): string {
  const host = url.hostname.toLowerCase().replace(/^www\./, '');
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  // http and https default ports are the same site.
  return `${host}:${port === '443' || port === '80' ? 'default' : port}`;
}
