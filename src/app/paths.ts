/** The app's routes (REQ-NAV-1..11): links, redirects and the router use these, never a typed path. */
export const paths = {
  home: '/',
  contact: '/contact',
  about: '/about',
  policy: '/policy',
  login: '/login',
  admin: '/admin',
} as const;
