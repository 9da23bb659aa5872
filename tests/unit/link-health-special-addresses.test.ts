// The link checker refuses every block of the IANA special-purpose registries (IPv4 and IPv6,
// supabase/functions/_shared/special-addresses.ts), and judges the IPv4 address inside the
// translation prefixes. Walks every row of the table (first, a middle and the last address of
// each block) plus the examples a hostile test found treated as public: SIIT ::ffff:0:0:0/96,
// local-use NAT64 64:ff9b:1::/48 (reaching 169.254.169.254 where translated) and Teredo.
import { describe, expect, it } from 'vitest';
import {
  classifyAddress,
  judgeIPv4,
  judgeIPv6,
  parseIPv4,
  parseIPv6,
  refusal,
} from '../../supabase/functions/_shared/address.ts';
import {
  IPV4_SPECIAL,
  IPV6_SPECIAL,
  type SpecialBlock,
} from '../../supabase/functions/_shared/special-addresses.ts';

const hosted = { allowLoopback: false };

/** First, middle and last address of a block, as bytes. */
function samples(row: SpecialBlock, parse: (t: string) => number[] | null): number[][] {
  const [net, bitsText] = row.block.split('/');
  const first = parse(net!)!;
  const bits = Number(bitsText);
  const withHost = (fill: (i: number) => number) =>
    first.map((byte, i) => {
      const keep = Math.max(0, Math.min(8, bits - i * 8));
      const mask = (0xff << (8 - keep)) & 0xff;
      return (byte & mask) | (fill(i) & ~mask & 0xff);
    });
  return [first, withHost((i) => (i % 2 ? 0x5a : 0xa5)), withHost(() => 0xff)];
}

const v6Text = (b: number[]) =>
  Array.from({ length: 8 }, (_, i) => ((b[2 * i]! << 8) | b[2 * i + 1]!).toString(16)).join(':');

describe('the special-purpose tables', () => {
  it('give every block its RFC, and every block parses', () => {
    for (const row of [...IPV4_SPECIAL, ...IPV6_SPECIAL]) {
      expect(row.rfc, row.block).toMatch(/^RFC \d{3,4}$/);
      expect(row.block).toMatch(/\/\d{1,3}$/);
    }
  });

  it.each(IPV4_SPECIAL.map((row) => [row.block, row] as const))(
    'refuses all of IPv4 %s',
    (_, row) => {
      for (const bytes of samples(row, parseIPv4)) {
        expect(judgeIPv4(bytes).kind, bytes.join('.')).not.toBe('public');
        expect(refusal(bytes.join('.'), hosted), bytes.join('.')).toMatch(/^refused: /);
      }
    },
  );

  it.each(IPV6_SPECIAL.filter((row) => !row.judgedByIPv4).map((row) => [row.block, row] as const))(
    'refuses all of IPv6 %s',
    (_, row) => {
      for (const bytes of samples(row, parseIPv6)) {
        expect(judgeIPv6(bytes).kind, v6Text(bytes)).not.toBe('public');
        expect(refusal(v6Text(bytes), hosted), v6Text(bytes)).toMatch(/^refused: /);
      }
    },
  );
});

describe('translation prefixes: the IPv4 address inside decides', () => {
  const embedded = [
    ['::ffff:%s', 'mapped'],
    ['::ffff:0:%s', 'SIIT'],
    ['64:ff9b::%s', 'NAT64'],
  ];
  it.each(embedded)('%s (%s) is refused for a special IPv4, allowed for a public one', (form) => {
    for (const row of IPV4_SPECIAL) {
      const bytes = samples(row, parseIPv4)[1]!;
      const address = form.replace('%s', bytes.join('.'));
      expect(refusal(address, hosted), address).toMatch(/^refused: /);
    }
    for (const v4 of ['8.8.8.8', '1.1.1.1', '151.101.1.69'])
      expect(classifyAddress(form.replace('%s', v4))).toBe('public');
  });

  it('6to4 2002::/16 carries its IPv4 address in bits 16-47', () => {
    expect(classifyAddress('2002:a9fe:a9fe::1')).toBe('link-local');
    expect(classifyAddress('2002:0a00:0001::')).toBe('private');
    expect(classifyAddress('2002:c000:0201::')).toBe('reserved'); // 192.0.2.1
    expect(classifyAddress('2002:808:808::1')).toBe('public');
  });

  it('local-use NAT64 64:ff9b:1::/48 and IPv4-compatible ::/96 are refused whatever they carry', () => {
    expect(classifyAddress('64:ff9b:1::a9fe:a9fe')).toBe('link-local');
    expect(classifyAddress('64:ff9b:1::169.254.169.254')).toBe('link-local');
    expect(classifyAddress('64:ff9b:1::808:808')).toBe('reserved');
    expect(classifyAddress('64:ff9b:1:ffff:ffff:ffff:ffff:ffff')).toBe('reserved');
    expect(classifyAddress('::8.8.8.8')).toBe('reserved');
    expect(classifyAddress('::10.0.0.1')).toBe('private');
  });
});

describe('examples', () => {
  it.each([
    // Found treated as public by the hostile test.
    ['::ffff:0:a9fe:a9fe', 'link-local'],
    ['::ffff:0:127.0.0.1', 'loopback'],
    ['64:ff9b:1::a9fe:a9fe', 'link-local'],
    ['2001::1', 'reserved'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'reserved'], // Teredo, RFC 4380's example
    // Other special IPv6 blocks.
    ['2001:db8::1', 'reserved'],
    ['3fff::1', 'reserved'],
    ['2001:2::1', 'reserved'],
    ['2001:20::1', 'reserved'],
    ['5f00::1', 'reserved'],
    ['2620:4f:8000::1', 'reserved'],
    ['100::1', 'reserved'],
    ['fec0::1', 'private'],
    // Outside global unicast 2000::/3.
    ['4000::1', 'reserved'],
    ['1::1', 'reserved'],
    ['e000::1', 'reserved'],
    // Special IPv4 blocks the old list missed.
    ['192.31.196.1', 'reserved'],
    ['192.52.193.1', 'reserved'],
    ['192.88.99.1', 'reserved'],
    ['192.175.48.1', 'reserved'],
    ['192.0.0.9', 'reserved'],
    // Public, next to special blocks.
    ['2001:200::1', 'public'],
    ['2001:4860:4860::8888', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['3fff:1000::1', 'public'],
    ['2620:4f:8001::1', 'public'],
    ['192.0.3.1', 'public'],
    ['192.31.197.1', 'public'],
    ['198.20.0.1', 'public'],
    ['223.255.255.255', 'public'],
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it('names the reason in the refusal', () => {
    expect(refusal('64:ff9b:1::a9fe:a9fe', hosted)).toBe(
      'refused: link-local address (64:ff9b:1::a9fe:a9fe)',
    );
    expect(refusal('2001::1', hosted)).toBe('refused: reserved address (2001::1)');
  });
});
