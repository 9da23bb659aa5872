// @vitest-environment jsdom
// The contact form's human check in the browser (docs/decisions/0203): Cloudflare Turnstile is
// drawn only when a site key was set at build time, its script is added only by the Contact Us
// page, the token goes with the message, and the CSP names Cloudflare only when a key is set.
// Cloudflare cannot be reached from the test machine, so `window.turnstile` is the test's own
// object with the API's shape (render / reset / remove) and the function is the page's stub.
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fillPlaceholders, TURNSTILE_ORIGIN } from '../../src/host/securityHeaders';
import { texts } from '../../src/formTexts';
import { renderWithProviders } from './render';

const invoke = vi.fn();
vi.mock('../../src/lib/infra/supabase', () => ({ supabase: { functions: { invoke } } }));
const notify = { success: vi.fn(), error: vi.fn() };
vi.mock('../../src/lib/infra/notify', () => ({ notify }));

const { ContactPage } = await import('../../src/features/contact/ContactPage');
const { HumanCheck, TURNSTILE_SCRIPT_URL } = await import('../../src/features/contact/HumanCheck');

const cloudflareScripts = () =>
  [...document.querySelectorAll('script')].filter((s) => s.src.includes('challenges.cloudflare'));

/** What Turnstile's explicit render API offers; `pass` plays a visitor passing the check. */
function fakeTurnstile() {
  let callback: ((token: string) => void) | undefined;
  const api = {
    render: vi.fn((_el: HTMLElement, opts: { callback?: (token: string) => void }) => {
      callback = opts.callback;
      return 'widget-1';
    }),
    reset: vi.fn(),
    remove: vi.fn(),
    pass: (token: string) => act(() => callback?.(token)),
  };
  window.turnstile = api;
  return api;
}

beforeEach(() => {
  invoke.mockReset();
  notify.success.mockReset();
  notify.error.mockReset();
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  vi.unstubAllEnvs();
  delete window.turnstile;
  for (const s of cloudflareScripts()) s.remove();
});

async function fillAndSend() {
  const user = userEvent.setup();
  await user.type(screen.getByRole('textbox', { name: /^name/i }), 'Ann');
  await user.type(screen.getByRole('textbox', { name: /^email/i }), 'ann@example.test');
  await user.type(screen.getByRole('textbox', { name: /^message/i }), 'Hello');
  await user.click(screen.getByRole('button', { name: 'Send' }));
}

describe('HumanCheck', () => {
  it('renders nothing and loads no script without a site key', () => {
    const { container } = render(
      <HumanCheck siteKey={undefined} onToken={() => {}} resetKey={0} />,
    );
    expect(container.innerHTML).toBe('');
    expect(cloudflareScripts()).toHaveLength(0);
  });

  it('with a site key, adds Cloudflare\u2019s script for an explicit render', () => {
    renderWithProviders(<HumanCheck siteKey="0x4AAA-site" onToken={() => {}} resetKey={0} />);
    expect(screen.getByTestId('human-check')).toBeInTheDocument();
    expect(cloudflareScripts().map((s) => s.src)).toEqual([TURNSTILE_SCRIPT_URL]);
  });
});

describe('Contact Us page with the human check', () => {
  it('without a site key: no widget, and the message goes without a token', async () => {
    invoke.mockResolvedValue({ data: { ok: true }, error: null });
    renderWithProviders(<ContactPage />);
    expect(screen.queryByTestId('human-check')).toBeNull();
    await fillAndSend();
    await waitFor(() => expect(invoke).toHaveBeenCalledTimes(1));
    expect(invoke.mock.calls[0]![1].body).not.toHaveProperty('turnstileToken');
    expect(cloudflareScripts()).toHaveLength(0);
  });

  it('with a site key: asks for the check first, then sends the token and asks for a new one', async () => {
    vi.stubEnv('VITE_TURNSTILE_SITE_KEY', '0x4AAA-site');
    const turnstile = fakeTurnstile();
    invoke.mockResolvedValue({ data: { ok: true }, error: null });
    renderWithProviders(<ContactPage />);
    await waitFor(() => expect(turnstile.render).toHaveBeenCalledTimes(1));
    expect(turnstile.render.mock.calls[0]![1]).toMatchObject({ sitekey: '0x4AAA-site' });

    await fillAndSend();
    expect(await screen.findByText(texts.contact.humanCheck)).toBeInTheDocument();
    expect(invoke).not.toHaveBeenCalled();

    await turnstile.pass('token-1');
    expect(screen.queryByText(texts.contact.humanCheck)).toBeNull();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(notify.success).toHaveBeenCalledWith(texts.contact.sent));
    expect(invoke.mock.calls[0]![1].body).toMatchObject({ turnstileToken: 'token-1' });
    // Tokens are single-use: the thank-you panel (REQ-PATH-9) removes the widget, and the next
    // message gets a new one.
    await waitFor(() => expect(turnstile.remove).toHaveBeenCalledWith('widget-1'));
    await userEvent.setup().click(screen.getByRole('button', { name: texts.contact.sendAnother }));
    await waitFor(() => expect(turnstile.render).toHaveBeenCalledTimes(2));
  });

  it('when the function refuses the token: the spec\u2019s failure toast and the check text', async () => {
    vi.stubEnv('VITE_TURNSTILE_SITE_KEY', '0x4AAA-site');
    const turnstile = fakeTurnstile();
    const refusal = new Response(JSON.stringify({ code: 'human_check_failed', error: 'x' }), {
      status: 403,
    });
    invoke.mockResolvedValue({
      data: null,
      error: Object.assign(new Error('403'), { context: refusal }),
    });
    renderWithProviders(<ContactPage />);
    await waitFor(() => expect(turnstile.render).toHaveBeenCalled());
    await turnstile.pass('token-old');
    await fillAndSend();
    await waitFor(() => expect(notify.error).toHaveBeenCalledWith(texts.contact.failed));
    expect(await screen.findByText(texts.contact.humanCheck)).toBeInTheDocument();
  });
});

describe('CSP', () => {
  const source =
    "script-src 'self' __TURNSTILE_ORIGIN__; connect-src 'self'; frame-src 'self' __TURNSTILE_ORIGIN__";

  it('names Cloudflare for scripts and frames only when a site key is set', async () => {
    expect(await fillPlaceholders(source, 'http://127.0.0.1:1')).toBe(
      "script-src 'self'; connect-src 'self'; frame-src 'self'",
    );
    expect(await fillPlaceholders(source, 'http://127.0.0.1:1', '', 'key')).toBe(
      `script-src 'self' ${TURNSTILE_ORIGIN}; connect-src 'self'; frame-src 'self' ${TURNSTILE_ORIGIN}`,
    );
  });
});
