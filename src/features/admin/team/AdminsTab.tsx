import { sessionEndedAfter } from '../../../lib/infra/sessionEnded';
import { Alert, Button, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { paths } from '../../../routing/paths';
import { notify } from '../../../lib/infra/notify';
import { useSubmitLock } from '../../../lib/infra/useSubmitLock';
import { texts } from '../../../adminTexts';
import { factorDialog, factorRefusalText, factorRemoved } from './ColleagueFactor';
import { useAuth } from '../../auth/AuthProvider';
import { isDbError } from '../db';
import { ConfirmDialog } from '../editor/ConfirmDialog';
import { useAdminLoss } from './useAdminLoss';
import { AdminCard, InviteCard } from './TeamCards';
import {
  loadFactors,
  loadTeam,
  removeAdmin,
  removeColleagueFactors,
  RemoveRefused,
  resendInvite,
  ResendTooSoon,
  withdrawInvite,
  type OpenInvite,
  type Team,
  type TeamMember,
} from './teamApi';
import { LoadingIndicator } from '../../../lib/ui/LoadingIndicator';

const t = texts.team;
const INSUFFICIENT_PRIVILEGE = '42501';

type LoadState = { kind: 'loading' } | { kind: 'error' } | { kind: 'ready'; team: Team };
/** What the confirmation dialog asks about. */
type Pending =
  | { kind: 'withdraw'; invite: OpenInvite }
  | { kind: 'remove'; member: TeamMember }
  | { kind: 'factor'; member: TeamMember }
  | null;
/** The running action and the row it is for (one at a time). */
type Action = `${'resend' | 'withdraw' | 'remove' | 'factor'}:${string}`;

/** The confirmation dialog's words for what it asks about. */
function dialogOf(pending: Pending): { title: string; text: string; confirmLabel: string } {
  if (pending?.kind === 'remove') {
    const text = t.removeText(pending.member.name ?? pending.member.email);
    return { title: t.removeTitle, text, confirmLabel: t.remove };
  }
  if (pending?.kind === 'factor') {
    return factorDialog(pending.member.email);
  }
  const text = pending?.kind === 'withdraw' ? t.withdrawText(pending.invite.email) : '';
  return { title: t.withdrawTitle, text, confirmLabel: t.withdraw };
}

/**
 * Admins tab: every admin and every open invitation, with Remove admin, Withdraw invitation and
 * Resend e-mail. The database decides every rule (admins only, not oneself, not the last admin);
 * this tab turns its answers into messages and reloads the list after each action.
 */
export function AdminsTab() {
  const { session } = useAuth();
  const adminLost = useAdminLoss();
  const { busy, run } = useSubmitLock<Action>();
  const [state, setState] = useState<LoadState>({ kind: 'loading' });
  const [pending, setPending] = useState<Pending>(null);
  // Colleagues' verified factors by user id; empty when they cannot be read (the list still works).
  const [factors, setFactors] = useState<Map<string, string[]>>(new Map());

  const load = useCallback(async () => {
    setState((prev) => (prev.kind === 'ready' ? prev : { kind: 'loading' }));
    loadFactors().then(setFactors, (error: unknown) => {
      console.error("Loading the admins' two-factor sign-in failed", error);
      setFactors(new Map());
    });
    try {
      setState({ kind: 'ready', team: await loadTeam() });
    } catch (error) {
      console.error('Loading the admin team failed', error);
      setState({ kind: 'error' });
      if (isDbError(error, INSUFFICIENT_PRIVILEGE)) await adminLost();
    }
  }, [adminLost]);

  useEffect(() => {
    void load();
  }, [load]);

  /** Runs one action; a refusal becomes its message, and the list is reloaded afterwards. */
  const act = (action: Action, success: string, work: () => Promise<boolean>) =>
    run(action, async () => {
      try {
        if (await work()) notify.success(success);
        else if (!(await sessionEndedAfter())) notify.error(t.alreadyChanged);
      } catch (error) {
        console.error(`Admin team: ${action} failed`, error);
        if (error instanceof RemoveRefused) {
          notify.error(error.rule === 'remove_self' ? t.removeSelf : t.lastAdmin);
        } else if (error instanceof ResendTooSoon) {
          notify.error(t.resendTooSoon);
        } else if (await sessionEndedAfter(error)) {
          // Said by sessionEndedAfter (REQ-MFA-5).
        } else if (isDbError(error, INSUFFICIENT_PRIVILEGE) && (await adminLost())) {
          // Said by adminLost.
        } else if (action.startsWith('factor:')) {
          // Still an admin, but e.g. this session lacks the code the rule asks for (aal2).
          const refused = isDbError(error, INSUFFICIENT_PRIVILEGE);
          notify.error(factorRefusalText(error, refused) ?? texts.unexpected);
        } else {
          notify.error(texts.unexpected);
        }
      }
      await load();
    });

  const onConfirm = () => {
    const target = pending;
    setPending(null);
    if (target?.kind === 'withdraw') {
      const { email } = target.invite;
      void act(`withdraw:${email}`, t.withdrawn, () => withdrawInvite(email));
    } else if (target?.kind === 'remove') {
      const { user_id: userId } = target.member;
      void act(`remove:${userId}`, t.removed, () => removeAdmin(userId));
    } else if (target?.kind === 'factor') {
      const { user_id: userId, email } = target.member;
      const ids = factors.get(userId) ?? [];
      void act(`factor:${userId}`, factorRemoved(email), () => removeColleagueFactors(ids));
    }
  };

  const onResend = (email: string) =>
    void act(`resend:${email}`, t.resent, () =>
      resendInvite(email, `${window.location.origin}${paths.login}`),
    );

  if (state.kind === 'loading') return <LoadingIndicator label={t.loading} />;
  if (state.kind === 'error') {
    return (
      <Alert color="red" role="alert">
        <Stack gap="sm" align="flex-start">
          <Text size="sm">{t.loadFailed}</Text>
          <Button size="xs" variant="light" onClick={() => void load()}>
            {texts.admin.retry}
          </Button>
        </Stack>
      </Alert>
    );
  }

  const { admins, invites } = state.team;
  const inviteBusy = (email: string) => {
    if (busy === `resend:${email}`) return 'resend';
    if (busy === `withdraw:${email}`) return 'withdraw';
    return null;
  };
  const grid = { base: 1, sm: 2, lg: 3 };
  const listStyle = { listStyle: 'none', padding: 0, margin: 0 };

  return (
    <Stack gap="lg">
      <Stack gap="sm">
        <Title order={2} size="h3">
          {t.adminsHeading}
        </Title>
        <SimpleGrid cols={grid} component="ul" style={listStyle}>
          {admins.map((member) => (
            <AdminCard
              key={member.user_id}
              member={member}
              isYou={member.user_id === session?.user.id}
              removing={busy === `remove:${member.user_id}`}
              disabled={busy !== null}
              onRemove={() => setPending({ kind: 'remove', member })}
              twoFactor={factors.has(member.user_id)}
              removingFactor={busy === `factor:${member.user_id}`}
              onRemoveFactor={() => setPending({ kind: 'factor', member })}
            />
          ))}
        </SimpleGrid>
      </Stack>
      <Stack gap="sm">
        <Title order={2} size="h3">
          {t.invitesHeading}
        </Title>
        {invites.length === 0 ? (
          <Text c="dimmed">{t.noInvites}</Text>
        ) : (
          <SimpleGrid cols={grid} component="ul" style={listStyle}>
            {invites.map((invite) => (
              <InviteCard
                key={invite.email}
                invite={invite}
                busy={inviteBusy(invite.email)}
                disabled={busy !== null}
                onResend={() => onResend(invite.email)}
                onWithdraw={() => setPending({ kind: 'withdraw', invite })}
              />
            ))}
          </SimpleGrid>
        )}
      </Stack>
      <ConfirmDialog
        opened={pending !== null}
        {...dialogOf(pending)}
        onConfirm={onConfirm}
        onCancel={() => setPending(null)}
      />
    </Stack>
  );
}
