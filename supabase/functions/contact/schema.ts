// What the Contact Us form may send. Unknown keys are dropped; every field is trimmed first.
import { z } from 'npm:zod@4.6.7';

function hasControlChars(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

export const LIMITS = { name: 100, email: 254, message: 5000, honeypot: 500 } as const;

export const contactSchema = z.object({
  name: z
    .string({ error: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .max(LIMITS.name, `Name must be at most ${LIMITS.name} characters`)
    // The name goes into the mail's Subject header: no line breaks or other control characters.
    .refine((s) => !hasControlChars(s), 'Name must not contain control characters'),
  email: z
    .string({ error: 'Email is required' })
    .trim()
    .min(1, 'Email is required')
    .max(LIMITS.email, `Email must be at most ${LIMITS.email} characters`)
    .pipe(z.email('Email must be a valid e-mail address')),
  message: z
    .string({ error: 'Message is required' })
    .trim()
    .min(1, 'Message is required')
    .max(LIMITS.message, `Message must be at most ${LIMITS.message} characters`)
    // Postgres text cannot hold NUL: refuse it here with a field error instead of failing the
    // insert with a 500. (Other control characters, such as line breaks, are fine in a message.)
    .refine((s) => !s.includes('\u0000'), 'Message must not contain NUL characters'),
  // Honeypot: a field hidden from people; bots that fill every input give themselves away.
  website: z.string().max(LIMITS.honeypot).optional(),
});

export type ContactInput = z.infer<typeof contactSchema>;
