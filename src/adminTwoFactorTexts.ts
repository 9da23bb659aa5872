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
    failed: 'Something went wrong. Please try again.',
    signInIntro: 'Enter the 6-digit code from your authenticator app',
    verify: 'Continue',
    otherAccount: 'Use another account',
  },
};
