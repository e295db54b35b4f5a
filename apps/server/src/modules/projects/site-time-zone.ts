import { sql, type SQL } from 'drizzle-orm';
import type { OwnedReads } from '../../db/owned-reads.ts';
import { maps } from '../../db/schema/index.ts';

/**
 * The site's time zone, as a scalar subquery: the zone most of the project's gateways keep (their `time.set`
 * zone), or null when none has one. Ties go to the zone first by name, so the answer does not change from one call
 * to the next. Screens, the log book and its PDF all read a site's times in this one zone. Gateways are read through
 * their owner's subquery (`reads`: the gateways domain imports this one).
 */
export function siteTimeZoneSql(
  reads: Pick<OwnedReads, 'gateways'>,
  q: { tenantId: SQL | bigint; projectId: SQL | bigint },
): SQL<string | null> {
  return sql<string | null>`(
    select g.timezone from ${reads.gateways('g')} join ${maps} m on m.id = g.map_id
    where g.tenant_id = ${q.tenantId} and m.project_id = ${q.projectId} and coalesce(g.timezone, '') <> ''
    group by g.timezone order by count(*) desc, g.timezone asc limit 1)`;
}
