/**
 * Texts of two-factor sign-in (REQ-MFA-1, decision 0252): the Account tab's section, the forced
 * enrolment and the code step after the password on /login. Same rule as src/texts.ts (one
 * place, no dead keys, no repeats); kept apart because this UI loads as a chunk of its own, for
 * the login page as well as the admin area, without either's other texts.
 */
const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
const when = (iso: string) => dateFormat.format(new Date(iso));

export const texts = {
  twoFactor: {
    heading: 'Two-factor sign-in',
    offIntro:
      'After your password, sign-in also asks for a 6-digit code from an authenticator app on your phone (for example Google Authenticator, Microsoft Authenticator, 1Password or Bitwarden).',
    required: 'This store requires two-factor sign-in for admins. Turn it on to continue.',
    turnOn: 'Turn on two-factor sign-in',
    friendlyName: 'MAR Online Store admin',
    loading: 'Loading two-factor sign-in',
    loadFailed: 'Could not load your two-factor sign-in. Please reload the page.',
    scanStep: 'Scan this QR code with your authenticator app.',
    qrAlt: 'QR code for your authenticator app',
    secretStep: 'Or enter this key in the app or your password manager.',
    secretLabel: 'Setup key',
    copy: 'Copy key',
    copied: 'Key copied',
    codeStep: 'Then enter the 6-digit code the app shows.',
    code: '6-digit code',
    codeHint: 'The newest code from your authenticator app',
    codeInvalid: 'Enter the 6 digits of the code',
    confirm: 'Turn on',
    cancel: 'Cancel setup',
    keep: 'Keep it on',
    turnedOn: 'Two-factor sign-in is on',
    onSince: (iso: string) => `On since ${when(iso)}`,
    lastUsed: (iso: string) => `Last used ${when(iso)}`,
    remove: 'Remove',
    removeIntro: 'To remove two-factor sign-in, enter a current code from your authenticator app.',
    removeConfirm: 'Remove two-factor sign-in',
    removed: 'Two-factor sign-in is off',
    wrongCode:
      "That code is not right. Check your authenticator app's clock and try the newest code.",
    tooMany: 'Too many codes were tried. Wait a few minutes, then try again with the newest code.',
    locked:
      'Too many wrong codes: for your safety this sign-in has ended. Wait 5 minutes, then sign in again with your password and the newest code.',
    signInAgain: 'Back to sign-in',
    failed: 'Something went wrong. Please try again.',
    signInIntro: 'Enter the 6-digit code from your authenticator app',
    verify: 'Continue',
    otherAccount: 'Use another account',
  },
  /** Settings tab: the store-wide rule (REQ-MFA-2). */
  requireAll: {
    heading: 'Two-factor sign-in for admins',
    label: 'Every admin must use two-factor sign-in',
    hint: 'Admins without two-factor sign-in are led to turn it on at their next visit and can do nothing else in the admin area until then.',
    selfTitle: 'You have no two-factor sign-in yet',
    selfText:
      'After saving, you too can do nothing else in the admin area until you turn it on. Have your phone with an authenticator app ready.',
    selfConfirm: 'Save and require it',
  },
  /** Admins tab: a colleague's factor (lost phone). */
  colleague: {
    on: 'Two-factor on',
    remove: 'Remove two-factor',
    removeTitle: 'Remove their two-factor sign-in?',
    removeText: (email: string) =>
      `${email} will sign in with the password alone until they turn it on again.`,
    removed: (email: string) => `${email} now signs in with the password alone.`,
    ownFactor: 'Your own two-factor sign-in is removed on the Account tab (it asks for a code).',
    notFound: 'This two-factor sign-in was already removed, or its account is no admin any more.',
    needsCode:
      'Removing two-factor sign-in needs a session that entered a code. Sign out, sign in again with your code, then try again.',
  },
};
