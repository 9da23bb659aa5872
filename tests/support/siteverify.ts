// A local server speaking Cloudflare Turnstile's siteverify protocol, for tests of the contact
// function's human check. Cloudflare cannot be reached from the test machine, so this stands in
// for it, as the mail catcher stands in for the mail provider: a form-encoded POST of `secret`,
// `response` and optionally `remoteip`, answered with JSON `{success, "error-codes": [...]}`.
// Like Cloudflare it checks the secret, knows which tokens it issued and accepts each token once.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SiteverifyRequest {
  secret: string | null;
  response: string | null;
  remoteip: string | null;
}

export interface Siteverify {
  /** The URL to set as CONTACT_TURNSTILE_VERIFY_URL. */
  url: string;
  secret: string;
  /** A fresh token, as the widget would hand to a visitor who passed. */
  issue(): string;
  /** Every request received, oldest first. */
  requests: SiteverifyRequest[];
  /** 'up' answers; 'down' answers HTTP 500; 'internal-error' answers Cloudflare's own failure. */
  mode: 'up' | 'down' | 'internal-error';
  close(): Promise<void>;
}

export async function startSiteverify(): Promise<Siteverify> {
  const secret = `0x4AAAA-test-${randomBytes(8).toString('hex')}`;
  const issued = new Set<string>();
  const used = new Set<string>();
  const requests: SiteverifyRequest[] = [];

  const answer = (res: http.ServerResponse, success: boolean, codes: string[]) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ success, 'error-codes': codes }));
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/turnstile/v0/siteverify')) {
        res.writeHead(404).end();
        return;
      }
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      const got: SiteverifyRequest = {
        secret: form.get('secret'),
        response: form.get('response'),
        remoteip: form.get('remoteip'),
      };
      requests.push(got);
      if (sv.mode === 'down') {
        res.writeHead(500).end('unavailable');
        return;
      }
      if (sv.mode === 'internal-error') return answer(res, false, ['internal-error']);
      if (!(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded'))
        return answer(res, false, ['bad-request']);
      if (!got.secret) return answer(res, false, ['missing-input-secret']);
      if (got.secret !== secret) return answer(res, false, ['invalid-input-secret']);
      if (!got.response) return answer(res, false, ['missing-input-response']);
      if (used.has(got.response)) return answer(res, false, ['timeout-or-duplicate']);
      if (!issued.has(got.response)) return answer(res, false, ['invalid-input-response']);
      used.add(got.response);
      return answer(res, true, []);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const sv: Siteverify = {
    url: `http://127.0.0.1:${port}/turnstile/v0/siteverify`,
    secret,
    issue() {
      const token = `XXXX.DUMMY.TOKEN.${randomBytes(24).toString('base64url')}`;
      issued.add(token);
      return token;
    },
    requests,
    mode: 'up',
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return sv;
}
