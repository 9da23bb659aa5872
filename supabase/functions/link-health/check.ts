// Checks one URL: HEAD first, GET when HEAD is refused or fails (many shops answer HEAD with
// 403/405/501 or nothing), redirects followed here (never by a library) so that every hop's
// target is resolved and approved before anything connects to it. One deadline per link covers
// every hop. Verdicts (docs/decisions/0130):
//   ok           the URL (or a redirect on the same site) answers 1xx-3xx / 2xx
//   redirected   the answer came from another site after redirects (final_url says where)
//   broken       the (final) answer is 4xx or 5xx (the database confirms it only after a second
//                failed check in a row: public.record_link_checks, REQ-OFF-6)
//   blocked      the seller refuses bots: 401/403/429/503 with a bot wall's signs (Cloudflare's
//                cf-mitigated or server header, Akamai, a captcha page); not broken (decision 0234)
//   unreachable  no answer: DNS, refused connection, TLS, bad response, a refused target
//                (private address...), too many redirects or a loop
//   timed_out    nothing complete before the deadline
import { bareHost, refusal, siteOf, type TargetPolicy } from '../_shared/address.ts';
import { resolveHost } from '../_shared/resolve.ts';
import {
  beforeDeadline,
  http1Request,
  TimeoutError,
  type Http1Request,
  type Http1Response,
} from '../_shared/http1.ts';

export type LinkStatus = 'ok' | 'redirected' | 'broken' | 'blocked' | 'unreachable' | 'timed_out';

/** One hop of the redirect chain: its answer's code (null: no answer) and host. */
export interface Hop {
  code: number | null;
  host: string;
}

export interface CheckResult {
  status: LinkStatus;
  httpCode: number | null;
  finalUrl: string;
  detail: string | null;
  /** Every hop, first to last (the evidence the admin sees for "blocked our checker"). */
  chain: Hop[];
}

/** Codes a bot wall answers with; 403 alone on every check is judged by the database. */
const BOT_CODES = new Set([401, 403, 429, 503]);
const CAPTCHA =
  /captcha|cf-chl-|challenge-platform|cf_chl_opt|attention required! \| cloudflare|_incapsula_resource|px-captcha|datadome/i;

/** Why this answer looks like a bot wall, or null (a plain error page). */
export function botWall(res: Http1Response): string | null {
  if (!BOT_CODES.has(res.status)) return null;
  const h = res.headers;
  if (h['cf-mitigated']) return `cf-mitigated: ${h['cf-mitigated']}`;
  const server = h['server'] ?? '';
  if (/cloudflare/i.test(server)) return `server: ${server}`;
  if (/akamai/i.test(server)) return `server: ${server}`;
  if (h['x-akamai-transformed']) return 'akamai';
  if (CAPTCHA.test(res.body)) return 'captcha page';
  return null;
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
/** Hops kept in a result (the database bounds the stored chain the same way). */
export const MAX_CHAIN = 25;

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
    return {
      status: 'unreachable',
      httpCode: null,
      finalUrl: start,
      detail: 'not a URL',
      chain: [],
    };
  }
  const first = url;
  const seen = new Set<string>([url.href]);
  let code: number | null = null;
  const chain: Hop[] = [];
  /** Whether `url` has its answer in the chain already. */
  let answered = false;
  const result = (status: LinkStatus, detail: string | null = null): CheckResult => {
    // A hop that got no answer (refused, unreachable, timed out, not followed) is evidence too.
    if (!answered) chain.push({ code: null, host: url.host });
    return {
      status,
      httpCode: code,
      finalUrl: url.href,
      detail: detail?.slice(0, 200) ?? null,
      chain: chain.slice(0, MAX_CHAIN),
    };
  };

  for (let hop = 0; ; hop++) {
    answered = false;
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
      chain.push({ code, host: url.host });
      answered = true;

      if (REDIRECTS.has(res.status) && res.location) {
        let next: URL;
        try {
          next = new URL(res.location, url);
        } catch {
          return result('unreachable', 'redirect to an invalid URL');
        }
        answered = false;
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
      const wall = botWall(res);
      if (wall) return result('blocked', `bot wall: ${wall}`);
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
