import { Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { texts } from '../../../adminTexts';
import { RemoveFactorButton, TwoFactorOn } from './ColleagueFactor';
import type { OpenInvite, TeamMember } from './teamApi';

const t = texts.team;
const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

/** A date as a <time> element, so assistive tech and tests get the exact instant. */
function When({ iso }: { iso: string }) {
  return <time dateTime={iso}>{dateFormat.format(new Date(iso))}</time>;
}

function personOf(name: string | null, email: string | null): string | null {
  if (!email) return null;
  return name ? `${name} (${email})` : email;
}

/** A label and its value, stacked, so long e-mail addresses wrap instead of scrolling sideways. */
function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}

/** Cards, not a table: they read well at 375 px without hidden columns. */
function Card({ testId, children }: { testId: string; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="md" data-testid={testId} component="li">
      <Stack gap="xs">{children}</Stack>
    </Paper>
  );
}

interface AdminCardProps {
  member: TeamMember;
  isYou: boolean;
  removing: boolean;
  disabled: boolean;
  onRemove: () => void;
  /** Has a verified two-factor factor (REQ-MFA-2); shown for colleagues. */
  twoFactor: boolean;
  removingFactor: boolean;
  onRemoveFactor: () => void;
}

export function AdminCard({
  member,
  isYou,
  removing,
  disabled,
  onRemove,
  twoFactor,
  removingFactor,
  onRemoveFactor,
}: AdminCardProps) {
  return (
    <Card testId="team-admin">
      <Group gap="xs" wrap="nowrap" justify="space-between" align="flex-start">
        <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
          {member.name ?? member.email}
        </Text>
        {isYou && (
          <Badge variant="light" style={{ flexShrink: 0 }}>
            {t.you}
          </Badge>
        )}
      </Group>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {member.email}
      </Text>
      <Fact label={t.adminSince}>
        <When iso={member.admin_since} />
      </Fact>
      <Fact label={t.invitedBy}>
        {personOf(member.invited_by_name, member.invited_by_email) ?? t.notInvited}
      </Fact>
      {!isYou && twoFactor && <TwoFactorOn />}
      {!isYou && (
        <Group gap="xs">
          {twoFactor && (
            <RemoveFactorButton
              loading={removingFactor}
              disabled={disabled && !removingFactor}
              onClick={onRemoveFactor}
            />
          )}
          <Button
            size="xs"
            color="red"
            variant="light"
            loading={removing}
            disabled={disabled && !removing}
            onClick={onRemove}
          >
            {t.remove}
          </Button>
        </Group>
      )}
    </Card>
  );
}

interface InviteCardProps {
  invite: OpenInvite;
  busy: 'resend' | 'withdraw' | null;
  disabled: boolean;
  onResend: () => void;
  onWithdraw: () => void;
}

export function InviteCard({ invite, busy, disabled, onResend, onWithdraw }: InviteCardProps) {
  const inviter = personOf(invite.invited_by_name, invite.invited_by_email);
  return (
    <Card testId="team-invite">
      <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
        {invite.email}
      </Text>
      <Fact label={t.invitedAt}>
        <When iso={invite.invited_at} />
      </Fact>
      {inviter && <Fact label={t.invitedBy}>{inviter}</Fact>}
      <Text size="sm" c="dimmed">
        {invite.account === 'unconfirmed' ? t.unconfirmed : t.noAccount}
      </Text>
      {invite.last_sent_at && (
        <Fact label={t.lastSent}>
          <When iso={invite.last_sent_at} />
        </Fact>
      )}
      <Group gap="xs">
        {invite.account === 'unconfirmed' && (
          <Button
            size="xs"
            variant="light"
            loading={busy === 'resend'}
            disabled={disabled && busy !== 'resend'}
            onClick={onResend}
          >
            {t.resend}
          </Button>
        )}
        <Button
          size="xs"
          color="red"
          variant="light"
          loading={busy === 'withdraw'}
          disabled={disabled && busy !== 'withdraw'}
          onClick={onWithdraw}
        >
          {t.withdraw}
        </Button>
      </Group>
    </Card>
  );
}
