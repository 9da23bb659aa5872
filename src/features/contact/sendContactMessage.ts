import type { SupabaseClient } from '@supabase/supabase-js';
import type { ContactFormValues } from './contactSchema';

/**
 * Sends the form to the `contact` edge function. Resolves when the function stored the message
 * (it answers 200 `{ ok: true }`); rejects on anything else: bad input, rate limit, network or
 * server failure.
 */
export async function sendContactMessage(
  client: SupabaseClient,
  values: ContactFormValues,
): Promise<void> {
  const body = {
    name: values.name,
    email: values.email,
    message: values.message,
    website: values.website,
  };
  const { data, error } = await client.functions.invoke<{ ok?: boolean }>('contact', { body });
  if (error) throw error;
  if (!data || data.ok !== true)
    throw new Error('The contact function did not confirm the message');
}
