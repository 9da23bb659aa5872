// Throwaway stacks pick a random port range (stack/ports.ts); a range over a port fetch refuses
// made every HTTP call of that stack fail with "bad port".
import { describe, expect, it } from 'vitest';
import { PORT_SPAN } from '../../stack/config.ts';
import { rangeHasBlockedPort } from '../../stack/ports.ts';

describe('throwaway stack ports', () => {
  it('fetch refuses port 10080, so no stack range may cover it', async () => {
    const err = await fetch('http://127.0.0.1:10080/').catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect(String((err as Error & { cause?: Error }).cause?.message)).toMatch(/bad port/);
    for (let base = 10080 - PORT_SPAN; base <= 10080; base++) {
      expect(rangeHasBlockedPort(base)).toBe(true);
    }
    expect(rangeHasBlockedPort(10080 - PORT_SPAN - 1)).toBe(false);
    expect(rangeHasBlockedPort(10081)).toBe(false);
  });
});
