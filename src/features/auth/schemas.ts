import { z } from '../../lib/zod';
import { texts } from '../../texts';

/** The /login form. The spec quotes no texts for it, so these are the store's own. */
export const loginSchema = z.object({
  email: z
    .string()
    .trim()
    .min(1, { message: texts.login.emailRequired, abort: true })
    .pipe(z.email({ message: texts.login.emailInvalid })),
  password: z.string().min(1, { message: texts.login.passwordRequired }),
});

export type LoginValues = z.infer<typeof loginSchema>;
