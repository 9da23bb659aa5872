// DNS for the SSRF guard (Deno only; address.ts stays free of Deno APIs for unit tests).
import { classifyAddress, isLocalhostName } from './address.ts';

/** Every A and AAAA record of `host`; `localhost` never goes to DNS. */
export async function resolveHost(host: string): Promise<string[]> {
  if (classifyAddress(host) !== null) return [host];
  if (isLocalhostName(host)) return ['127.0.0.1'];
  const [v4, v6] = await Promise.all([
    Deno.resolveDns(host, 'A').catch(() => [] as string[]),
    Deno.resolveDns(host, 'AAAA').catch(() => [] as string[]),
  ]);
  return [...v4, ...v6];
}
