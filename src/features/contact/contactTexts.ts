import { texts } from '../../texts';

/**
 * Texts of the Contact Us page: the spec's messages (texts.contact) plus labels the spec does not
 * quote. Component and tests import from here.
 */
export const contactTexts = {
  ...texts.contact,
  intro:
    'Thank you for visiting MAR Online Store! Have a question about our sports goods? ' +
    'Send us a message and we will reply by e-mail as soon as we can.',
  name: 'Name',
  email: 'Email',
  message: 'Message',
  send: 'Send',
  invalidEmail: 'Please enter a valid email address',
  tooLong: 'This field is too long',
  /** Label of the hidden honeypot field (read only by bots and screen readers never reach it). */
  honeypot: 'Website',
} as const;

/** Same limits as the contact function's validation. */
export const contactLimits = { name: 100, email: 254, message: 5000 } as const;
