import { constants } from '../../texts';
import { texts } from '../../formTexts';
import { z } from './zod';

/** A new password typed twice, at least config.toml's minimum_password_length long. */
const newPasswordFields = {
  password: z.string().min(constants.minPasswordLength, { message: texts.signup.passwordTooShort }),
  confirm: z.string(),
};
const typedTwice: [
  (v: { password: string; confirm: string }) => boolean,
  { message: string; path: string[] },
] = [(v) => v.password === v.confirm, { message: texts.passwordReset.mismatch, path: ['confirm'] }];

/** "Set a new password" after a reset link. */
export const newPasswordSchema = z.object(newPasswordFields).refine(...typedTwice);
export type NewPasswordValues = z.infer<typeof newPasswordSchema>;

/** My account's password change: the current password as well (the Auth API checks it). */
export const changePasswordSchema = z
  .object({
    current: z.string().min(1, { message: texts.login.passwordRequired }),
    ...newPasswordFields,
  })
  .refine(...typedTwice);
export type ChangePasswordValues = z.infer<typeof changePasswordSchema>;
