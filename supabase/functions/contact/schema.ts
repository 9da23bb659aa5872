// What the Contact Us form may send. Unknown keys are dropped; every field is trimmed first.
// Lengths count characters (code points) and the character rules are those of the table's checks
// (text-rules.ts), so whatever passes here is stored, and whatever the table refuses gets a 400.
import { z } from 'npm:zod@4.6.7';
import { TURNSTILE_TOKEN_MAX } from './turnstile.ts';
import { charLength, isWellFormed, MESSAGE_FORBIDDEN, ONE_LINE_FORBIDDEN } from './text-rules.ts';

export const LIMITS = { name: 100, email: 254, message: 5000, honeypot: 500 } as const;

export const contactSchema = z.object({
  name: z
    .string({ error: 'Name is required' })
    .trim()
    .refine((s) => s !== '', 'Name is required')
    .refine((s) => charLength(s) <= LIMITS.name, `Name must be at most ${LIMITS.name} characters`)
    .refine(isWellFormed, 'Name contains an invalid character')
    // The name goes into the mail's Subject header and the admin list: one line, shown as typed.
    .refine(
      (s) => !ONE_LINE_FORBIDDEN.test(s),
      'Name must not contain control, line-break or text-direction characters',
    ),
  email: z
    .string({ error: 'Email is required' })
    .trim()
    .min(1, 'Email is required')
    .max(LIMITS.email, `Email must be at most ${LIMITS.email} characters`)
    .pipe(z.email('Email must be a valid e-mail address')),
  message: z
    .string({ error: 'Message is required' })
    .trim()
    .refine((s) => s !== '', 'Message is required')
    .refine(
      (s) => charLength(s) <= LIMITS.message,
      `Message must be at most ${LIMITS.message} characters`,
    )
    .refine(isWellFormed, 'Message contains an invalid character')
    // Line breaks and tabs are fine in a message; other control characters (NUL, which Postgres
    // text cannot hold, escape sequences) are refused here with a field error, not a 500.
    .refine(
      (s) => !MESSAGE_FORBIDDEN.test(s),
      'Message must not contain control characters (line breaks and tabs are fine)',
    ),
  // Honeypot: a field hidden from people; bots that fill every input give themselves away.
  website: z.string().max(LIMITS.honeypot).optional(),
  // The Turnstile token of the human check (turnstile.ts); checked only when a secret is set.
  turnstileToken: z.string().max(TURNSTILE_TOKEN_MAX).optional(),
});

export type ContactInput = z.infer<typeof contactSchema>;
