import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { maps, projectMembers, projects, users } from '../../db/schema/index.ts';

/**
 * The users of an account who see what stands on a map: the account itself and its sub-accounts given every
 * project or the map's project (or one above it). A map of null (nothing placed) is seen by the account and by
 * sub-accounts given every project.
 */
export async function usersSeeingMap(db: Db, q: { tenantId: bigint; mapId: bigint | null }): Promise<bigint[]> {
  const people = (await db.execute(sql`
    with recursive above(id, depth) as (
      select m.project_id, 0 from ${maps} m where m.id = ${q.mapId ?? -1n}
      union all
      select p.parent_id, above.depth + 1 from ${projects} p join above on p.id = above.id
      where p.parent_id is not null and above.depth < 1000
    )
    select u.id from ${users} u
    where (u.id = ${q.tenantId} or u.parent_id = ${q.tenantId}) and u.deleted_at is null
      and (u.all_projects or exists (
        select 1 from ${projectMembers} pm where pm.user_id = u.id and pm.project_id in (select id from above)))`)) as unknown as {
    rows: Array<{ id: string | bigint }>;
  };
  return people.rows.map((u) => BigInt(u.id));
}
