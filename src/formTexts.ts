/**
 * The storefront's forms (Contact Us, Admin Login, the password reset pages): src/texts.ts plus
 * the texts only those pages show, in their chunks like src/pageTexts.ts, so the first load of
 * the home page and the product page does not carry them (REQ-WEIGHT-5). src/adminTexts.ts
 * extends this object (the admin area shows the password and sign-up texts too). Same rule as
 * src/texts.ts (tests/unit/texts-rule.test.ts checks every texts module).
 */
import { texts as storeTexts } from './texts.ts';

export const texts = {
  ...storeTexts,
  contact: {
    heading: 'Contact Us',
    fillAll: 'Please fill all fields!',
    sent: 'Email Sent Successfully',
    failed: 'Something went wrong! Try again.',
    // Not quoted by the spec.
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
    /** Shown when the human check (docs/decisions/0203) is not passed; not quoted by the spec. */
    humanCheck: 'Please complete the check that you are not a robot, then send your message again.',
    /** After a message was sent: a lasting panel in place of the form (REQ-PATH-9). */
    thanksHeading: 'Thank you for your message',
    thanksText: (email: string) =>
      `We have received it and will reply to ${email} as soon as we can.`,
    sendAnother: 'Send another message',
    /** Beside the spec's failure toast when the function answers 429 (REQ-PATH-9). */
    tooMany:
      'You have sent several messages in a short time. Please try again in a few minutes; ' +
      'what you wrote is still here.',
  },
  login: {
    ...storeTexts.login,
    verifyFirst: 'Verify your Email first',
    success: 'Login Successful',
    failed: 'Something went wrong',
    // Not quoted by the spec (it only says such a note exists); worded for this store.
    note: 'Login is only for the store admin.',
    email: 'Email',
    password: 'Password',
    submit: 'Login',
    emailRequired: 'Email is Required',
    emailInvalid: 'Enter a valid Email',
    passwordRequired: 'Password is Required',
    signedInAs: 'You are signed in as',
    goToAdmin: 'Go to Admin',
    linkFailed: 'This email link is invalid or has expired.',
  },
  /** The reset pages' texts; the new-password form's: src/adminTexts.ts. */
  passwordReset: {
    ...storeTexts.passwordReset,
    forgotLink: 'Forgot password?',
    requestIntro:
      'Enter the e-mail address of your admin account. We will send you a link to set a new password.',
    send: 'Send reset link',
    // One answer whether or not the address has an account (nothing to learn from it).
    sent: 'If an account exists for this address, an e-mail with a reset link is on its way. The link works once.',
    sendFailed: 'The reset link could not be sent. Please try again in a moment.',
    backToLogin: 'Back to Admin Login',
    mismatch: 'The passwords do not match',
  },
  /** Shared with the password reset page; SignUP's other texts: src/adminTexts.ts. */
  signup: {
    passwordTooShort: 'Password should be at least 6 characters',
  },
} as const;
