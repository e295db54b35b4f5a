import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPglite } from '../test/database-templates.ts';
import type { Database } from './client.ts';
import { isForeignKeyViolation, isUniqueViolation, violatedConstraint } from './errors.ts';
import { startPgliteThread, type PgliteThread } from './pglite-thread.ts';
import { gateways } from './schema/index.ts';

/** The raw client under Drizzle: the worker thread's driver. */
const threadOf = (database: Database) => (database.db as unknown as { $client: PgliteThread }).$client;

/** What a rejected promise was rejected with. */
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable('the statement was accepted'),
    (error: unknown) => error as Error & { cause?: Record<string, unknown> },
  );

describe('PGlite in a worker thread', () => {
  let database: Database;
  beforeAll(async () => {
    database = await freshPglite({ worker: true });
    await database.db.execute(sql`create table thread_parent (id int primary key, name text not null unique)`);
    await database.db.execute(sql`create table thread_child (id int primary key, parent int not null references thread_parent (id))`);
  });
  afterAll(async () => database.close());

  const names = async () =>
    ((await database.db.execute(sql`select name from thread_parent order by id`)) as unknown as { rows: Array<{ name: string }> }).rows.map(
      (r) => r.name,
    );

  it('keeps PostgreSQL error codes and fields across the thread', async () => {
    await database.db.execute(sql`insert into thread_parent values (1, 'one')`);
    const duplicate = await refusal(database.db.execute(sql`insert into thread_parent values (2, 'one')`));
    expect(isUniqueViolation(duplicate)).toBe(true);
    expect(violatedConstraint(duplicate)).toBe('thread_parent_name_key');
    expect(duplicate.cause).toMatchObject({ code: '23505', table: 'thread_parent', detail: 'Key (name)=(one) already exists.' });

    const orphan = await refusal(database.db.execute(sql`insert into thread_child values (1, 99)`));
    expect(isForeignKeyViolation(orphan)).toBe(true);
    expect(violatedConstraint(orphan)).toBe('thread_child_parent_fkey');

    const syntax = await refusal(threadOf(database).query('selec 1'));
    expect(syntax).toMatchObject({ code: '42601', message: 'syntax error at or near "selec"', position: '1' });
    expect(syntax).toBeInstanceOf(Error);
  });

  it('answers rows as Drizzle reads them: arrays of columns, dates and ids as text, 64-bit ids exact', async () => {
    const [gw] = await database.db.insert(gateways).values({ mac: 'A4C1380000F1' }).returning();
    expect(typeof gw!.id).toBe('bigint');
    expect(gw!.mac).toBe('A4C1380000F1');
    const { rows } = (await database.db.execute(
      sql`select '2026-11-23 08:00:00+00'::timestamptz as at, 9007199254740995::int8 as big`,
    )) as unknown as {
      rows: Array<{ at: unknown; big: unknown }>;
    };
    expect(rows).toEqual([{ at: '2026-11-23 08:00:00+00', big: 9007199254740995n }]);
  });

  it('rolls a transaction back when its callback throws, and keeps a savepoint rollback inside it', async () => {
    await database.db.execute(sql`delete from thread_parent`);
    await expect(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into thread_parent values (10, 'ten')`);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await names()).toEqual([]);

    await expect(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into thread_parent values (11, 'eleven')`);
        tx.rollback();
      }),
    ).rejects.toThrow('Rollback');
    expect(await names()).toEqual([]);

    await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into thread_parent values (12, 'twelve')`);
      await expect(
        tx.transaction(async (inner) => {
          await inner.execute(sql`insert into thread_parent values (13, 'thirteen')`);
          await inner.execute(sql`insert into thread_parent values (14, 'twelve')`);
        }),
      ).rejects.toSatisfy(isUniqueViolation);
    });
    expect(await names()).toEqual(['twelve']);
  });

  it('runs other statements only after an open transaction ends, and sends the transaction its own', async () => {
    await database.db.execute(sql`delete from thread_parent`);
    let outsideAnswered = false;
    let outside: Promise<string[]> | undefined;
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into thread_parent values (20, 'twenty')`);
      outside = names().then((seen) => {
        outsideAnswered = true;
        return seen;
      });
      // Round trips to the thread while the outside statement waits: each would have let it through.
      for (let i = 0; i < 20; i++) {
        const { rows } = (await tx.execute(sql`select count(*)::int as n from thread_parent`)) as unknown as { rows: Array<{ n: number }> };
        expect(rows[0]!.n).toBe(1);
      }
      expect(outsideAnswered).toBe(false);
    });
    expect(await outside).toEqual(['twenty']);
  });

  it('serves statements after a transaction failed inside the database', async () => {
    await database.db.execute(sql`delete from thread_parent`);
    await database.db.execute(sql`insert into thread_parent values (30, 'thirty')`);
    const failed = await refusal(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into thread_parent values (31, 'thirty-one')`);
        await tx.execute(sql`insert into thread_parent values (32, 'thirty')`);
      }),
    );
    expect(isUniqueViolation(failed)).toBe(true);
    expect(await names()).toEqual(['thirty']);
  });

  it("carries a COPY's rows as a blob, and dumps its data folder", async () => {
    await database.db.execute(sql`delete from thread_parent`);
    await threadOf(database).query(`copy thread_parent (id, name) from '/dev/blob' with (format csv)`, [], {
      blob: new Blob(['40,forty\n41,forty-one\n']),
    });
    expect(await names()).toEqual(['forty', 'forty-one']);
    const copy = await startPgliteThread({ memory: true, image: await threadOf(database).dumpDataDir('none') });
    try {
      expect((await copy.query<{ name: string }>('select name from thread_parent order by id')).rows).toEqual([
        { name: 'forty' },
        { name: 'forty-one' },
      ]);
    } finally {
      await copy.close();
    }
  });

  it('refuses a parser it cannot carry, rather than ignore it', async () => {
    const upper = { 25: (value: string) => value.toUpperCase() };
    await expect(threadOf(database).query(`select 'a'::text as t`, [], { parsers: upper })).rejects.toThrow(
      'only parsers that keep the text',
    );
  });
});

describe('closing PGlite in a worker thread', () => {
  it('answers what was asked before closing, then refuses', async () => {
    const thread = threadOf(await freshPglite({ worker: true }));
    const asked = thread.query<{ n: number }>('select 1 as n');
    const closed = thread.close();
    expect(thread.closed).toBe(true);
    expect((await asked).rows).toEqual([{ n: 1 }]);
    await closed;
    await thread.close();
    await expect(thread.query('select 1')).rejects.toThrow('PGlite is closed');
  });

  it('refuses to start on a data folder it cannot read, naming the problem', async () => {
    await expect(startPgliteThread({ memory: true, image: new Blob(['not a tar file']) })).rejects.toThrow();
  });
});
