/** The app's routes (REQ-NAV-1..11): links, redirects and the router use these, never a typed path. */
export const paths = {
  home: '/',
  contact: '/contact',
  about: '/about',
  policy: '/policy',
  login: '/login',
  admin: '/admin',
  /** Asks for a password reset e-mail. */
  forgotPassword: '/forgot-password',
  /** Where the reset e-mail's link lands (must be in Auth's redirect URL allow-list). */
  resetPassword: '/reset-password',
} as const;
