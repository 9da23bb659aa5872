import { z } from '../../../lib/domain/zod';
import { constants, texts } from '../../../adminTexts';
import { required } from '../editor/titleSchema';

/** SignUP: name, e-mail and a password of at least config.toml's minimum_password_length. */
export const signupSchema = z.object({
  name: required(texts.signup.nameRequired),
  email: required(texts.signup.emailRequired).pipe(z.email({ message: texts.signup.emailInvalid })),
  password: z.string().min(constants.minPasswordLength, { message: texts.signup.passwordTooShort }),
});

export type SignupValues = z.infer<typeof signupSchema>;
