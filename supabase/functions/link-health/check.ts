// Checks one URL: HEAD first, GET when HEAD is refused or fails (many shops answer HEAD with
// 403/405/501 or nothing), redirects followed here (never by a library) so that every hop's
// target is resolved and approved before anything connects to it. One deadline per link covers
// every hop. Verdicts (docs/decisions/0130):
//   ok           the URL (or a redirect on the same site) answers 1xx-3xx / 2xx
//   redirected   the answer came from another site after redirects (final_url says where)
//   broken       the (final) answer is 4xx or 5xx
//   unreachable  no answer: DNS, refused connection, TLS, bad response, a refused target
//                (private address...), too many redirects or a loop
//   timed_out    nothing complete before the deadline
import {
  bareHost,
  classifyAddress,
  isLocalhostName,
  refusal,
  siteOf,
  type TargetPolicy,
} from './address.ts';
import {
  beforeDeadline,
  http1Request,
  TimeoutError,
  type Http1Request,
  type Http1Response,
} from './http1.ts';

export type LinkStatus = 'ok' | 'redirected' | 'broken' | 'unreachable' | 'timed_out';

export interface CheckResult {
  status: LinkStatus;
  httpCode: number | null;
  finalUrl: string;
  detail: string | null;
}

export interface CheckOptions {
  timeoutMs: number;
  maxRedirects: number;
  maxBodyBytes: number;
  userAgent: string;
  policy: TargetPolicy;
  /** IP addresses of a host name (tests and the bench may replace DNS; default Deno.resolveDns). */
  resolve?: (host: string) => Promise<string[]>;
  request?: (req: Http1Request) => Promise<Http1Response>;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

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

function message(err: unknown): string {
  if (err instanceof Error) return `${err.name === 'Error' ? '' : `${err.name}: `}${err.message}`;
  return String(err);
}

export async function checkUrl(start: string, o: CheckOptions): Promise<CheckResult> {
  const deadline = Date.now() + o.timeoutMs;
  const resolve = o.resolve ?? resolveHost;
  const request = o.request ?? http1Request;
  let url: URL;
  try {
    url = new URL(start);
  } catch {
    return { status: 'unreachable', httpCode: null, finalUrl: start, detail: 'not a URL' };
  }
  const first = url;
  const seen = new Set<string>([url.href]);
  let code: number | null = null;
  const result = (status: LinkStatus, detail: string | null = null): CheckResult => ({
    status,
    httpCode: code,
    finalUrl: url.href,
    detail: detail?.slice(0, 200) ?? null,
  });

  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return result('unreachable', `refused: ${url.protocol} is not http(s)`);
    }
    try {
      // Resolve, then approve every address before connecting (a mixed answer is refused).
      const addresses = await beforeDeadline(resolve(bareHost(url)), deadline);
      if (addresses.length === 0) return result('unreachable', 'no address for host');
      for (const address of addresses) {
        const why = refusal(address, o.policy);
        if (why) return result('unreachable', why);
      }
      const address = addresses.find((a) => !a.includes(':')) ?? addresses[0]!;
      const send = (method: 'HEAD' | 'GET') =>
        request({
          method,
          url,
          address,
          userAgent: o.userAgent,
          maxHeaderBytes: 32 * 1024,
          maxBodyBytes: o.maxBodyBytes,
          deadline,
        });
      let res: Http1Response | null = null;
      try {
        res = await send('HEAD');
      } catch (err) {
        if (err instanceof TimeoutError) throw err;
      }
      if (!res || res.status >= 400) res = await send('GET');
      code = res.status;

      if (REDIRECTS.has(res.status) && res.location) {
        let next: URL;
        try {
          next = new URL(res.location, url);
        } catch {
          return result('unreachable', 'redirect to an invalid URL');
        }
        if (seen.has(next.href)) {
          url = next;
          return result('unreachable', 'redirect loop');
        }
        if (hop + 1 > o.maxRedirects) {
          url = next;
          return result('unreachable', 'too many redirects');
        }
        seen.add(next.href);
        url = next;
        continue;
      }
      if (res.status >= 400) return result('broken');
      return result(siteOf(url) === siteOf(first) ? 'ok' : 'redirected');
    } catch (err) {
      if (err instanceof TimeoutError) return result('timed_out');
      return result('unreachable', message(err));
    }
  }
}

/** Runs `work` over `items` with at most `limit` at a time; results in input order. */
export async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
