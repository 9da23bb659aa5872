import { z } from '../../lib/domain/zod';
import { texts } from '../../formTexts';

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

/** /forgot-password: the address to mail a reset link to. */
export const resetRequestSchema = loginSchema.pick({ email: true });
export type ResetRequestValues = z.infer<typeof resetRequestSchema>;

export { newPasswordSchema, type NewPasswordValues } from '../../lib/domain/passwordSchemas';
