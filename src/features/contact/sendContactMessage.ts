import type { SupabaseClient } from '@supabase/supabase-js';
import type { ContactFormValues } from './contactSchema';

/** The function refused the human check's token (missing, wrong, expired or used before). */
export class HumanCheckError extends Error {
  constructor() {
    super('The contact function refused the human check');
    this.name = 'HumanCheckError';
  }
}

/** The function refused the message for too many messages in a short time (its 429). */
export class TooManyMessagesError extends Error {
  constructor() {
    super('The contact function refused the message: too many messages');
    this.name = 'TooManyMessagesError';
  }
}

/** The HTTP status of a functions.invoke error's answer, if it came with one. */
function statusOf(error: unknown): number | undefined {
  const res = (error as { context?: unknown } | null)?.context;
  return res instanceof Response ? res.status : undefined;
}

/** True when a functions.invoke error is the function's 403 for the human check. */
async function isHumanCheckRefusal(error: unknown): Promise<boolean> {
  const res = (error as { context?: unknown } | null)?.context;
  if (!(res instanceof Response) || res.status !== 403) return false;
  try {
    const body = (await res.clone().json()) as { code?: unknown };
    return body.code === 'human_check_failed';
  } catch {
    return false;
  }
}

/**
 * Sends the form to the `contact` edge function. Resolves when the function stored the message
 * (it answers 200 `{ ok: true }`); rejects on anything else: bad input, rate limit, network or
 * server failure, with HumanCheckError when the human check was not passed and with
 * TooManyMessagesError when the function's rate limit refused it.
 */
export async function sendContactMessage(
  client: SupabaseClient,
  values: ContactFormValues,
  turnstileToken?: string,
): Promise<void> {
  const body: Record<string, string | undefined> = {
    name: values.name,
    email: values.email,
    message: values.message,
    website: values.website,
  };
  // Only when the page shows the human check (a site key is set).
  if (turnstileToken) body.turnstileToken = turnstileToken;
  const { data, error } = await client.functions.invoke<{ ok?: boolean }>('contact', { body });
  if (error && statusOf(error) === 429) throw new TooManyMessagesError();
  if (error) throw (await isHumanCheckRefusal(error)) ? new HumanCheckError() : error;
  if (!data || data.ok !== true)
    throw new Error('The contact function did not confirm the message');
}
