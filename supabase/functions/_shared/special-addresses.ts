// The IANA special-purpose address registries (iana-ipv4-special-registry,
// iana-ipv6-special-registry), each block with its RFC, plus the other non-public space the
// link checker refuses (multicast; IPv6 outside global unicast 2000::/3). Every block here is
// refused, including the few the registry marks globally reachable (anycast services, AS112):
// no seller's page lives there. Translation prefixes carry an IPv4 address, which is judged
// too (address.ts). Pure data; the unit tests walk every row.

export type AddressClass =
  'public' | 'loopback' | 'private' | 'link-local' | 'multicast' | 'unspecified' | 'reserved';

export interface SpecialBlock {
  /** CIDR as the registry writes it. */
  block: string;
  name: string;
  rfc: string;
  kind: Exclude<AddressClass, 'public'>;
  /** IPv6 translation prefixes: the byte offset of the IPv4 address they carry. */
  ipv4At?: number;
  /** A translation prefix the world can route: its IPv4 address alone decides. */
  judgedByIPv4?: boolean;
}

/** Most specific first: the first match names the block. */
export const IPV4_SPECIAL: readonly SpecialBlock[] = [
  { block: '0.0.0.0/32', name: 'This host on this network', rfc: 'RFC 1122', kind: 'unspecified' },
  { block: '0.0.0.0/8', name: '"This network"', rfc: 'RFC 791', kind: 'reserved' },
  { block: '10.0.0.0/8', name: 'Private-Use', rfc: 'RFC 1918', kind: 'private' },
  { block: '100.64.0.0/10', name: 'Shared Address Space', rfc: 'RFC 6598', kind: 'private' },
  { block: '127.0.0.0/8', name: 'Loopback', rfc: 'RFC 1122', kind: 'loopback' },
  { block: '169.254.0.0/16', name: 'Link Local', rfc: 'RFC 3927', kind: 'link-local' },
  { block: '172.16.0.0/12', name: 'Private-Use', rfc: 'RFC 1918', kind: 'private' },
  {
    block: '192.0.0.0/29',
    name: 'IPv4 Service Continuity Prefix',
    rfc: 'RFC 7335',
    kind: 'reserved',
  },
  { block: '192.0.0.8/32', name: 'IPv4 dummy address', rfc: 'RFC 7600', kind: 'reserved' },
  {
    block: '192.0.0.9/32',
    name: 'Port Control Protocol Anycast',
    rfc: 'RFC 7723',
    kind: 'reserved',
  },
  { block: '192.0.0.10/32', name: 'TURN Anycast', rfc: 'RFC 8155', kind: 'reserved' },
  { block: '192.0.0.170/32', name: 'NAT64/DNS64 Discovery', rfc: 'RFC 8880', kind: 'reserved' },
  { block: '192.0.0.171/32', name: 'NAT64/DNS64 Discovery', rfc: 'RFC 8880', kind: 'reserved' },
  { block: '192.0.0.0/24', name: 'IETF Protocol Assignments', rfc: 'RFC 6890', kind: 'reserved' },
  { block: '192.0.2.0/24', name: 'Documentation (TEST-NET-1)', rfc: 'RFC 5737', kind: 'reserved' },
  { block: '192.31.196.0/24', name: 'AS112-v4', rfc: 'RFC 7535', kind: 'reserved' },
  { block: '192.52.193.0/24', name: 'AMT', rfc: 'RFC 7450', kind: 'reserved' },
  {
    block: '192.88.99.2/32',
    name: '6a44-relay anycast address',
    rfc: 'RFC 6751',
    kind: 'reserved',
  },
  {
    block: '192.88.99.0/24',
    name: 'Deprecated (6to4 Relay Anycast)',
    rfc: 'RFC 7526',
    kind: 'reserved',
  },
  { block: '192.168.0.0/16', name: 'Private-Use', rfc: 'RFC 1918', kind: 'private' },
  {
    block: '192.175.48.0/24',
    name: 'Direct Delegation AS112 Service',
    rfc: 'RFC 7534',
    kind: 'reserved',
  },
  { block: '198.18.0.0/15', name: 'Benchmarking', rfc: 'RFC 2544', kind: 'reserved' },
  {
    block: '198.51.100.0/24',
    name: 'Documentation (TEST-NET-2)',
    rfc: 'RFC 5737',
    kind: 'reserved',
  },
  {
    block: '203.0.113.0/24',
    name: 'Documentation (TEST-NET-3)',
    rfc: 'RFC 5737',
    kind: 'reserved',
  },
  // Not in the special-purpose registry: the multicast registry.
  { block: '224.0.0.0/4', name: 'Multicast', rfc: 'RFC 5771', kind: 'multicast' },
  { block: '255.255.255.255/32', name: 'Limited Broadcast', rfc: 'RFC 8190', kind: 'reserved' },
  { block: '240.0.0.0/4', name: 'Reserved', rfc: 'RFC 1112', kind: 'reserved' },
];

export const IPV6_SPECIAL: readonly SpecialBlock[] = [
  { block: '::/128', name: 'Unspecified Address', rfc: 'RFC 4291', kind: 'unspecified' },
  { block: '::1/128', name: 'Loopback Address', rfc: 'RFC 4291', kind: 'loopback' },
  // Translation prefixes: where a translator sends them is the IPv4 address inside.
  {
    block: '::ffff:0:0/96',
    name: 'IPv4-mapped Address',
    rfc: 'RFC 4291',
    kind: 'reserved',
    ipv4At: 12,
    judgedByIPv4: true,
  },
  {
    block: '::ffff:0:0:0/96',
    name: 'IPv4-translated Address (SIIT)',
    rfc: 'RFC 2765',
    kind: 'reserved',
    ipv4At: 12,
    judgedByIPv4: true,
  },
  {
    block: '64:ff9b::/96',
    name: 'IPv4-IPv6 Translat.',
    rfc: 'RFC 6052',
    kind: 'reserved',
    ipv4At: 12,
    judgedByIPv4: true,
  },
  // Local use: the site's own translator decides where it leads, so refused whatever it carries.
  {
    block: '64:ff9b:1::/48',
    name: 'IPv4-IPv6 Translat. (local use)',
    rfc: 'RFC 8215',
    kind: 'reserved',
    ipv4At: 12,
  },
  {
    block: '2002::/16',
    name: '6to4',
    rfc: 'RFC 3056',
    kind: 'reserved',
    ipv4At: 2,
    judgedByIPv4: true,
  },
  // Deprecated; not in the registry (inside the reserved ::/8).
  {
    block: '::/96',
    name: 'IPv4-compatible Address (deprecated)',
    rfc: 'RFC 4291',
    kind: 'reserved',
    ipv4At: 12,
  },
  { block: '100::/64', name: 'Discard-Only Address Block', rfc: 'RFC 6666', kind: 'reserved' },
  { block: '100:0:0:1::/64', name: 'Dummy IPv6 Prefix', rfc: 'RFC 9780', kind: 'reserved' },
  {
    block: '2001:1::1/128',
    name: 'Port Control Protocol Anycast',
    rfc: 'RFC 7723',
    kind: 'reserved',
  },
  { block: '2001:1::2/128', name: 'TURN Anycast', rfc: 'RFC 8155', kind: 'reserved' },
  { block: '2001:1::3/128', name: 'DNS-SD SRP Anycast', rfc: 'RFC 9665', kind: 'reserved' },
  { block: '2001:2::/48', name: 'Benchmarking', rfc: 'RFC 5180', kind: 'reserved' },
  { block: '2001:3::/32', name: 'AMT', rfc: 'RFC 7450', kind: 'reserved' },
  { block: '2001:4:112::/48', name: 'AS112-v6', rfc: 'RFC 7535', kind: 'reserved' },
  {
    block: '2001:10::/28',
    name: 'Deprecated (previously ORCHID)',
    rfc: 'RFC 4843',
    kind: 'reserved',
  },
  { block: '2001:20::/28', name: 'ORCHIDv2', rfc: 'RFC 7343', kind: 'reserved' },
  {
    block: '2001:30::/28',
    name: 'Drone Remote ID Protocol Entity Tags',
    rfc: 'RFC 9374',
    kind: 'reserved',
  },
  // Teredo hides a (XOR-ed) client IPv4 address and a server's: refused as a whole.
  { block: '2001::/32', name: 'TEREDO', rfc: 'RFC 4380', kind: 'reserved' },
  { block: '2001::/23', name: 'IETF Protocol Assignments', rfc: 'RFC 2928', kind: 'reserved' },
  { block: '2001:db8::/32', name: 'Documentation', rfc: 'RFC 3849', kind: 'reserved' },
  {
    block: '2620:4f:8000::/48',
    name: 'Direct Delegation AS112 Service',
    rfc: 'RFC 7534',
    kind: 'reserved',
  },
  { block: '3fff::/20', name: 'Documentation', rfc: 'RFC 9637', kind: 'reserved' },
  { block: '5f00::/16', name: 'Segment Routing (SRv6) SIDs', rfc: 'RFC 9602', kind: 'reserved' },
  { block: 'fc00::/7', name: 'Unique-Local', rfc: 'RFC 4193', kind: 'private' },
  { block: 'fe80::/10', name: 'Link-Local Unicast', rfc: 'RFC 4291', kind: 'link-local' },
  { block: 'fec0::/10', name: 'Site-Local (deprecated)', rfc: 'RFC 3879', kind: 'private' },
  { block: 'ff00::/8', name: 'Multicast', rfc: 'RFC 4291', kind: 'multicast' },
];

/** IANA allocates unicast only from 2000::/3; everything else (bar the rows above) is reserved. */
export const IPV6_GLOBAL_UNICAST = '2000::/3';
