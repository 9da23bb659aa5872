// Which network addresses the link checker may connect to (SSRF guard; docs/decisions/0131).
// Pure code (no Deno APIs): the unit tests import it under Node.
//
// Refused: loopback, private (RFC 1918, CGNAT 100.64/10, IPv6 ULA fc00::/7), link-local
// (169.254/16 incl. the cloud metadata address 169.254.169.254, fe80::/10), multicast,
// unspecified, broadcast and other reserved ranges, and IPv6 forms that carry an IPv4 address
// (mapped ::ffff:a.b.c.d, compatible ::a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16), which are
// judged by the IPv4 address inside. Loopback alone can be allowed (the local stack's tests).

export type AddressClass =
  'public' | 'loopback' | 'private' | 'link-local' | 'multicast' | 'unspecified' | 'reserved';

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

function inV4(b: number[], net: [number, number, number, number], bits: number): boolean {
  for (let i = 0; i < 4; i++) {
    const take = Math.max(0, Math.min(8, bits - i * 8));
    if (take === 0) return true;
    const mask = (0xff << (8 - take)) & 0xff;
    if ((b[i]! & mask) !== (net[i]! & mask)) return false;
  }
  return true;
}

export function classifyIPv4(b: number[]): AddressClass {
  if (inV4(b, [0, 0, 0, 0], 32)) return 'unspecified';
  if (inV4(b, [127, 0, 0, 0], 8)) return 'loopback';
  if (inV4(b, [10, 0, 0, 0], 8) || inV4(b, [172, 16, 0, 0], 12) || inV4(b, [192, 168, 0, 0], 16))
    return 'private';
  if (inV4(b, [100, 64, 0, 0], 10)) return 'private'; // CGNAT (RFC 6598)
  if (inV4(b, [169, 254, 0, 0], 16)) return 'link-local'; // incl. 169.254.169.254 (metadata)
  if (inV4(b, [224, 0, 0, 0], 4)) return 'multicast';
  if (
    inV4(b, [0, 0, 0, 0], 8) || // "this network"
    inV4(b, [192, 0, 0, 0], 24) || // IETF protocol assignments
    inV4(b, [192, 0, 2, 0], 24) || // documentation
    inV4(b, [198, 18, 0, 0], 15) || // benchmarking
    inV4(b, [198, 51, 100, 0], 24) ||
    inV4(b, [203, 0, 113, 0], 24) ||
    inV4(b, [240, 0, 0, 0], 4) // reserved, incl. 255.255.255.255 broadcast
  )
    return 'reserved';
  return 'public';
}

export function classifyIPv6(b: number[]): AddressClass {
  const zeroUpTo = (n: number) => b.slice(0, n).every((x) => x === 0);
  if (zeroUpTo(16)) return 'unspecified';
  if (zeroUpTo(15) && b[15] === 1) return 'loopback';
  // IPv4-mapped ::ffff:0:0/96 and the deprecated IPv4-compatible ::/96: the IPv4 address decides.
  if (zeroUpTo(10) && b[10] === 0xff && b[11] === 0xff) return classifyIPv4(b.slice(12));
  if (zeroUpTo(12)) return classifyIPv4(b.slice(12));
  // NAT64 64:ff9b::/96 and 6to4 2002::/16 reach the IPv4 address they carry.
  if (
    b[0] === 0x00 &&
    b[1] === 0x64 &&
    b[2] === 0xff &&
    b[3] === 0x9b &&
    b.slice(4, 12).every((x) => x === 0)
  )
    return classifyIPv4(b.slice(12));
  if (b[0] === 0x20 && b[1] === 0x02) return classifyIPv4(b.slice(2, 6));
  if ((b[0]! & 0xfe) === 0xfc) return 'private'; // ULA fc00::/7
  if (b[0] === 0xfe && (b[1]! & 0xc0) === 0x80) return 'link-local'; // fe80::/10
  if (b[0] === 0xfe && (b[1]! & 0xc0) === 0xc0) return 'private'; // deprecated site-local
  if (b[0] === 0xff) return 'multicast';
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0x0d && b[3] === 0xb8) return 'reserved'; // docs
  if (b[0] === 0x01 && b.slice(1, 8).every((x) => x === 0)) return 'reserved'; // discard 100::/64
  return 'public';
}

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
