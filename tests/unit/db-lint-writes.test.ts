// db:lint's parser check (scripts/db-lint-writes.ts, decision 0201) on function bodies given as
// text: what hosted's safeupdate refuses is found wherever PostgreSQL's parser puts it, and what
// it lets through is not reported.
import { loadModule } from 'libpg-query';
import { beforeAll, describe, expect, it } from 'vitest';
import { unfilteredWritesInPlpgsql, unfilteredWritesInSql } from '../../scripts/db-lint-writes.ts';

const plpgsql = (body: string, returns = 'void') =>
  `create function f() returns ${returns} language plpgsql as $fn$\n${body}\n$fn$`;

beforeAll(async () => {
  await loadModule();
});

describe('unfilteredWritesInSql', () => {
  it('finds UPDATE and DELETE without WHERE, in data-modifying CTEs too', () => {
    const found = unfilteredWritesInSql(
      'select 1;\ndelete from public.a;\nupdate b set x = 1 from c;\n' +
        'with d as (delete from private.e returning 1) select * from d;',
    );
    expect(found).toEqual([
      { command: 'DELETE', table: 'public.a', line: 2, dynamic: false },
      { command: 'UPDATE', table: 'b', line: 3, dynamic: false },
      { command: 'DELETE', table: 'private.e', line: 4, dynamic: false },
    ]);
  });

  it('accepts any WHERE, `where true` and `where current of` included', () => {
    expect(
      unfilteredWritesInSql(
        'delete from a where true; update b set x = 1 where 1 = 1; update c set x = 2 where current of k;' +
          ' insert into d values (1) on conflict (id) do update set x = 3;',
      ),
    ).toEqual([]);
  });
});

describe('unfilteredWritesInPlpgsql', () => {
  it('finds statements in nested blocks, branches, loops and handlers, with their lines', () => {
    const found = unfilteredWritesInPlpgsql(
      plpgsql(
        [
          'declare v int;',
          'begin',
          '  if v is null then',
          '    for v in 1..2 loop',
          '      update pg_temp.t c set n = v;',
          '    end loop;',
          '  end if;',
          '  begin',
          '    perform 1;',
          '  exception when others then',
          '    delete from public.w;',
          '  end;',
          '  update public.w set n = 1 where true;',
          'end',
        ].join('\n'),
      ),
    );
    expect(found).toEqual([
      { command: 'UPDATE', table: 'pg_temp.t', line: 6, dynamic: false },
      { command: 'DELETE', table: 'public.w', line: 12, dynamic: false },
    ]);
  });

  it('reads trigger functions', () => {
    const found = unfilteredWritesInPlpgsql(
      plpgsql('begin\n  delete from public.words;\n  return null;\nend', 'trigger'),
    );
    expect(found).toEqual([{ command: 'DELETE', table: 'public.words', line: 3, dynamic: false }]);
  });

  it('reads the literal text of dynamic statements, format() patterns included', () => {
    const found = unfilteredWritesInPlpgsql(
      plpgsql(
        [
          'declare r record;',
          'begin',
          "  execute format('delete from %I.%I', 'private', 'x');",
          "  execute 'update y set n = 1 where id = ' || 1;",
          "  for r in execute 'update z set n = 1 returning n' loop null; end loop;",
          "  return query execute 'delete from q returning 1';",
          'end',
        ].join('\n'),
        'setof int',
      ),
    );
    expect(found).toEqual([
      { command: 'DELETE', table: 'x.x', line: 4, dynamic: true },
      { command: 'UPDATE', table: 'z', line: 6, dynamic: true },
      { command: 'DELETE', table: 'q', line: 7, dynamic: true },
    ]);
  });

  it('throws on a body PostgreSQL cannot parse (db:lint reports it, never skips it)', () => {
    expect(() => unfilteredWritesInPlpgsql(plpgsql('begin\n  delete frm x;\nend'))).toThrow();
  });
});
