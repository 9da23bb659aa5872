import { describe, expect, it } from 'vitest';
import { cameFromFailedEmailLink } from '../../src/features/auth/emailLinks';

describe('cameFromFailedEmailLink', () => {
  it('sees GoTrue’s error redirect in the fragment (implicit) and in the query (PKCE)', () => {
    const failed = 'error=access_denied&error_code=otp_expired&error_description=Email+link';
    expect(cameFromFailedEmailLink({ hash: `#${failed}&sb=`, search: '' })).toBe(true);
    expect(cameFromFailedEmailLink({ hash: '', search: `?${failed}` })).toBe(true);
  });

  it('is false for a link that signed in, and for no link at all', () => {
    expect(
      cameFromFailedEmailLink({
        hash: '#access_token=a&refresh_token=b&type=recovery',
        search: '',
      }),
    ).toBe(false);
    expect(cameFromFailedEmailLink({ hash: '', search: '' })).toBe(false);
  });
});
