// @vitest-environment jsdom
// The Contact Us page in isolation: the supabase client is replaced by a stub whose
// functions.invoke the tests control (the real function is covered by the integration and
// browser tests).
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from './render';

const invoke = vi.fn();
vi.mock('../../src/lib/infra/supabase', () => ({ supabase: { functions: { invoke } } }));
const notify = { success: vi.fn(), error: vi.fn() };
vi.mock('../../src/lib/infra/notify', () => ({ notify }));

const { ContactPage } = await import('../../src/features/contact/ContactPage');

beforeEach(() => {
  invoke.mockReset();
  notify.success.mockReset();
  notify.error.mockReset();
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

function renderPage() {
  renderWithProviders(<ContactPage />);
  return renderedFields();
}

function renderedFields() {
  return {
    name: screen.getByRole('textbox', { name: /^name/i }) as HTMLInputElement,
    email: screen.getByRole('textbox', { name: /^email/i }) as HTMLInputElement,
    message: screen.getByRole('textbox', { name: /^message/i }) as HTMLTextAreaElement,
    submit: screen.getByRole('button', { name: 'Send' }),
  };
}

async function fill(
  f: ReturnType<typeof renderPage>,
  values: { name?: string; email?: string; message?: string },
) {
  const user = userEvent.setup();
  if (values.name) await user.type(f.name, values.name);
  if (values.email) await user.type(f.email, values.email);
  if (values.message) await user.type(f.message, values.message);
  return user;
}

describe('ContactPage', () => {
  it('shows the heading, a thank-you text, the three fields and an e-mail input of type email', () => {
    const f = renderPage();
    expect(screen.getByRole('heading', { name: 'Contact Us' })).toBeInTheDocument();
    expect(screen.getByText(/thank you/i)).toBeInTheDocument();
    expect(f.email.type).toBe('email');
    // Required-ness is checked by zod so an empty field shows the spec's alert, not a tooltip.
    expect(f.name.required).toBe(false);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it.each([
    ['all fields empty', {}],
    ['name missing', { email: 'ann@example.test', message: 'Hi' }],
    ['email missing', { name: 'Ann', message: 'Hi' }],
    ['message only spaces', { name: 'Ann', email: 'ann@example.test', message: '   ' }],
  ])('%s: shows "Please fill all fields!" and sends nothing', async (_title, values) => {
    const f = renderPage();
    const user = await fill(f, values);
    await user.click(f.submit);
    expect(await screen.findByRole('alert')).toHaveTextContent('Please fill all fields!');
    expect(invoke).not.toHaveBeenCalled();
  });

  it('hides the alert once every field is filled', async () => {
    const f = renderPage();
    const user = userEvent.setup();
    await user.click(f.submit);
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    await fill(f, { name: 'Ann', email: 'ann@example.test', message: 'Hi' });
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });

  it('refuses an address the browser accepts but zod does not', async () => {
    const f = renderPage();
    const user = await fill(f, { name: 'Ann', email: 'ann@localhost', message: 'Hi' });
    await user.click(f.submit);
    expect(await screen.findByText('Please enter a valid email address')).toBeInTheDocument();
    expect(invoke).not.toHaveBeenCalled();
  });

  it('sends the message to the contact function, toasts success, thanks, then offers an empty form', async () => {
    invoke.mockResolvedValue({ data: { ok: true }, error: null });
    const f = renderPage();
    const user = await fill(f, {
      name: ' Ann Smith ',
      email: 'ann@example.test',
      message: 'Do you sell shin pads?',
    });
    await user.click(f.submit);

    await waitFor(() => expect(notify.success).toHaveBeenCalledWith('Email Sent Successfully'));
    expect(invoke).toHaveBeenCalledTimes(1);
    expect(invoke).toHaveBeenCalledWith('contact', {
      body: {
        name: 'Ann Smith',
        email: 'ann@example.test',
        message: 'Do you sell shin pads?',
        website: '',
      },
    });
    expect(notify.error).not.toHaveBeenCalled();
    // A lasting thank-you panel replaces the form (REQ-PATH-9); another message starts empty.
    expect(
      await screen.findByRole('heading', { name: 'Thank you for your message' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Send another message' }));
    const again = renderedFields();
    expect(again.name.value).toBe('');
    expect(again.email.value).toBe('');
    expect(again.message.value).toBe('');
  });

  it.each([
    [
      'the function answers an error',
      () =>
        invoke.mockResolvedValue({
          data: null,
          error: new Error('Edge Function returned a non-2xx status code'),
        }),
    ],
    ['the network fails', () => invoke.mockRejectedValue(new TypeError('Failed to fetch'))],
    ['the answer does not confirm', () => invoke.mockResolvedValue({ data: 'OK', error: null })],
  ])(
    'when %s: toasts "Something went wrong! Try again." and keeps the input',
    async (_title, arrange) => {
      arrange();
      const f = renderPage();
      const user = await fill(f, { name: 'Ann', email: 'ann@example.test', message: 'Hello' });
      await user.click(f.submit);
      await waitFor(() =>
        expect(notify.error).toHaveBeenCalledWith('Something went wrong! Try again.'),
      );
      expect(notify.success).not.toHaveBeenCalled();
      expect(f.name.value).toBe('Ann');
      expect(f.message.value).toBe('Hello');
    },
  );

  it('shows progress and cannot be sent twice while a send is running', async () => {
    let finish!: (v: unknown) => void;
    invoke.mockReturnValue(new Promise((resolve) => (finish = resolve)));
    const f = renderPage();
    const user = await fill(f, { name: 'Ann', email: 'ann@example.test', message: 'Hello' });
    await user.click(f.submit);
    await waitFor(() => expect(f.submit).toBeDisabled());
    expect(f.submit).toHaveAttribute('data-loading');
    await user.click(f.submit);
    await act(async () => {
      f.submit.closest('form')!.requestSubmit();
    });
    expect(invoke).toHaveBeenCalledTimes(1);

    await act(async () => finish({ data: { ok: true }, error: null }));
    await waitFor(() => expect(f.submit).not.toBeDisabled());
    expect(notify.success).toHaveBeenCalledTimes(1);
  });

  it('has a honeypot that people do not see or reach, and sends what a bot puts in it', async () => {
    invoke.mockResolvedValue({ data: { ok: true }, error: null });
    const { container } = renderWithProviders(<ContactPage />);
    const trap = container.querySelector<HTMLInputElement>('input[name="website"]')!;
    expect(trap).not.toBeNull();
    expect(trap.tabIndex).toBe(-1);
    expect(trap.closest('[aria-hidden="true"]')).not.toBeNull();
    // Not among the accessible textboxes a person fills in.
    expect(screen.getAllByRole('textbox')).toHaveLength(3);

    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: /^name/i }), 'Bot');
    await user.type(screen.getByRole('textbox', { name: /^email/i }), 'bot@example.test');
    await user.type(screen.getByRole('textbox', { name: /^message/i }), 'Buy now');
    await user.type(trap, 'http://spam.example');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(invoke).toHaveBeenCalled());
    expect(invoke.mock.calls[0]![1].body.website).toBe('http://spam.example');
  });
});
