import { texts } from '../../formTexts';

/** Texts of the Contact Us page (they live in src/formTexts.ts with the other forms' texts). */
export const contactTexts = texts.contact;

/** Same limits as the contact function's validation. */
export const contactLimits = { name: 100, email: 254, message: 5000 } as const;
