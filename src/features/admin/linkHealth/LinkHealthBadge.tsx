import { Badge } from '@mantine/core';
import { texts } from '../../../adminTexts';
import { worstOf, type LinkCheck, type LinkStatus } from './linkHealthApi';

const t = texts.linkHealth;

// Palettes whose light variant reaches 4.5:1 in both schemes (src/app/theme.ts; axe checks).
const COLORS: Record<LinkStatus, string> = {
  ok: 'green',
  redirected: 'orange',
  broken: 'red',
  failing: 'orange',
  blocked: 'teal',
  unreachable: 'grape',
  timed_out: 'grape',
};

/** A product's link health in the table: the worse of its link's and image's last checks. */
export function LinkHealthBadge({ checks }: { checks: LinkCheck[] | undefined }) {
  const worst = checks ? worstOf(checks) : null;
  if (!worst) {
    return (
      <Badge variant="default" size="sm">
        {t.status.unchecked}
      </Badge>
    );
  }
  const label = t.status[worst.status];
  const about = [
    worst.kind === 'link'
      ? texts.productForm.link
      : worst.kind === 'offer'
        ? t.offerLink
        : texts.productForm.image,
    worst.http_code ? t.httpCode(worst.http_code) : null,
    worst.status === 'redirected' && worst.final_url ? worst.final_url : null,
    // Why there was no answer, e.g. "no address for host" (REQ-PATH-15).
    worst.status === 'unreachable' ? worst.detail : null,
  ]
    .filter(Boolean)
    .join(' · ');
  return (
    <Badge color={COLORS[worst.status]} variant="light" size="sm" title={about}>
      {label}
    </Badge>
  );
}
