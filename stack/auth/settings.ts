// GET /health, GET /settings and GET /.well-known/jwks.json: what clients ask before signing in.
import type { Reply } from './http.ts';
import type { AuthService } from './service.ts';
import type { Json } from './users.ts';

const EXTERNAL_PROVIDERS = [
  'anonymous_users',
  'apple',
  'azure',
  'bitbucket',
  'discord',
  'facebook',
  'snapchat',
  'figma',
  'fly',
  'github',
  'gitlab',
  'google',
  'keycloak',
  'kakao',
  'linkedin',
  'linkedin_oidc',
  'notion',
  'spotify',
  'slack',
  'slack_oidc',
  'workos',
  'twitch',
  'twitter',
  'email',
  'phone',
  'zoom',
];

export function health(): Reply {
  return {
    status: 200,
    body: {
      version: 'v2.180.0-local',
      name: 'GoTrue',
      description: 'GoTrue is a user registration and authentication API',
    },
  };
}

export function settings(svc: AuthService): Reply {
  const external: Json = {};
  for (const p of EXTERNAL_PROVIDERS) external[p] = p === 'email';
  return {
    status: 200,
    body: {
      external,
      disable_signup: !svc.opts.enableSignup,
      mailer_autoconfirm: !svc.opts.enableConfirmations,
      phone_autoconfirm: false,
      sms_provider: '',
      saml_enabled: false,
      saml_private_key_next_configured: false,
      passkeys_enabled: false,
    },
  };
}

/** Access tokens are HS256 with the project secret, so there is no public key to publish. */
export function jwks(): Reply {
  return {
    status: 200,
    body: { keys: [] },
    headers: { 'Cache-Control': 'public, max-age=600' },
  };
}
