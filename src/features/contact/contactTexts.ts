import { texts } from '../../texts';

/** Texts of the Contact Us page (they live in src/texts.ts like every other text). */
export const contactTexts = texts.contact;

/** Same limits as the contact function's validation. */
export const contactLimits = { name: 100, email: 254, message: 5000 } as const;
