import { z } from '../../lib/domain/zod';
import { contactLimits, contactTexts } from './contactTexts';

/**
 * The Contact Us form. An empty (or blank) field gives the spec's "Please fill all fields!";
 * the e-mail format is checked by the browser (type=email) and again here.
 */
export const contactFormSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, contactTexts.fillAll)
    .max(contactLimits.name, contactTexts.tooLong),
  email: z
    .string()
    .trim()
    .min(1, contactTexts.fillAll)
    .max(contactLimits.email, contactTexts.tooLong)
    .pipe(z.email(contactTexts.invalidEmail)),
  message: z
    .string()
    .trim()
    .min(1, contactTexts.fillAll)
    .max(contactLimits.message, contactTexts.tooLong),
  /** Honeypot: hidden from people, so it stays empty unless a bot fills it. */
  website: z.string(),
});

export type ContactFormInput = z.input<typeof contactFormSchema>;
export type ContactFormValues = z.output<typeof contactFormSchema>;
