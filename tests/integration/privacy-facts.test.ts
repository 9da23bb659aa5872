// The Privacy Policy's facts (src/features/pages/privacyFacts.ts, decision 0214) are the database's:
// the retention numbers equal the named retentions the clean-ups use, the clean-ups do what the
// page says when a message arrives through the contact function (supabase-js), and the tables
// keep exactly the columns the page lists, so a new column cannot slip in unmentioned.
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import {
  clickCountColumns,
  contactMessageColumns,
  retention,
} from '../../src/features/pages/privacyFacts.ts';
import { client, visitorMessage } from './contact-support.ts';
import { stackEnv, sql } from '../support/stack.ts';
import { uniqueEmail } from '../support/names.ts';
import { randomLoopbackIp } from '../support/loopback.ts';

const env = stackEnv();
const tag = uniqueEmail('privacy-facts').split('@')[0]!;

afterAll(async () => {
  await sql(`delete from public.contact_messages where name like $1`, [`${tag}%`], env);
});

/** Whether the database's interval equals the one the page states. */
async function same(fn: string, interval: string): Promise<boolean> {
  const rows = await sql<{ same: boolean }>(
    `select ${fn}() = $1::interval as same`,
    [interval],
    env,
  );
  return rows[0]!.same;
}

describe('privacy facts against the database', () => {
  it('states the retentions the clean-ups use', async () => {
    expect(
      await same('private.contact_message_retention', `${retention.contactMessageMonths} months`),
    ).toBe(true);
    expect(
      await same('private.contact_address_retention', `${retention.contactAddressDays} days`),
    ).toBe(true);
    expect(
      await same(
        'private.click_source_counter_retention',
        `${retention.clickSourceCounterMinutes} minutes`,
      ),
    ).toBe(true);
    expect(
      await same('private.click_repeat_window', `${retention.clickRepeatMinutes} minutes`),
    ).toBe(true);
    expect(
      await same('private.click_page_view_retention', `${retention.clickPageViewHours} hours`),
    ).toBe(true);
    // The clean-up of the Buy Now working tables uses exactly these.
    const [{ def }] = await sql<{ def: string }>(
      `select pg_get_functiondef('private.wipe_click_sources()'::regprocedure) as def`,
      [],
      env,
    );
    for (const fn of [
      'click_source_counter_retention',
      'click_repeat_window',
      'click_page_view_retention',
    ]) {
      expect(def).toContain(`private.${fn}()`);
    }
    expect(def).not.toMatch(/interval '/);
  });

  it('a new message deletes messages past 12 months and clears addresses past 7 days', async () => {
    // Aged rows written with the clean-up trigger off (in one transaction), so only the message
    // sent below can have cleaned up.
    const db = new pg.Client({ connectionString: env.DB_URL });
    await db.connect();
    const ids: Record<string, string> = {};
    try {
      await db.query('begin');
      await db.query('alter table public.contact_messages disable trigger user');
      for (const [key, age] of [
        ['tooOld', `${retention.contactMessageMonths} months 1 hour`],
        ['yearOld', `${retention.contactMessageMonths} months -1 day`],
        ['week', `${retention.contactAddressDays} days 1 hour`],
        ['recent', `${retention.contactAddressDays} days -1 hour`],
      ] as const) {
        const r = await db.query<{ id: string }>(
          `insert into public.contact_messages (name, email, message, ip, created_at)
           values ($1, $2, 'old', '203.0.113.9', now() - $3::interval) returning id`,
          [`${tag}-${key}`, `${tag}-${key}@example.test`, age],
        );
        ids[key] = r.rows[0]!.id;
      }
      await db.query('alter table public.contact_messages enable trigger user');
      await db.query('commit');
    } finally {
      await db.end();
    }
    const { tooOld, yearOld, week, recent } = ids as Record<
      'tooOld' | 'yearOld' | 'week' | 'recent',
      string
    >;
    const before = await sql<{ n: number }>(
      `select count(*)::int as n from public.contact_messages where id = any($1::uuid[]) and ip is not null`,
      [[tooOld, yearOld, week, recent]],
      env,
    );
    expect(before[0]!.n).toBe(4);

    const msg = visitorMessage({ name: `${tag}-new` });
    const { error } = await client(env, env.ANON_KEY, randomLoopbackIp()).functions.invoke(
      'contact',
      {
        body: msg,
      },
    );
    expect(error).toBeNull();

    const rows = await sql<{ id: string; ip: string | null }>(
      `select id, host(ip) as ip from public.contact_messages where id = any($1::uuid[])`,
      [[tooOld, yearOld, week, recent]],
      env,
    );
    const ipOf = Object.fromEntries(rows.map((r) => [r.id, r.ip]));
    expect(tooOld in ipOf).toBe(false);
    expect(ipOf[yearOld]).toBeNull();
    expect(ipOf[week]).toBeNull();
    expect(ipOf[recent]).toBe('203.0.113.9');
    // The new message keeps its address for the form's limits.
    const [fresh] = await sql<{ ip: string | null }>(
      `select host(ip) as ip from public.contact_messages where email = $1`,
      [msg.email],
      env,
    );
    expect(fresh!.ip).not.toBeNull();
  });

  it('keeps exactly the columns the page lists', async () => {
    const columns = async (table: string) =>
      (
        await sql<{ column_name: string }>(
          `select column_name from information_schema.columns
            where table_schema = 'public' and table_name = $1`,
          [table],
          env,
        )
      )
        .map((r) => r.column_name)
        .sort();
    expect(await columns('contact_messages')).toEqual(
      Object.values(contactMessageColumns).flat().sort(),
    );
    for (const [table, listed] of Object.entries(clickCountColumns)) {
      expect(await columns(table)).toEqual([...listed].sort());
    }
  });
});
