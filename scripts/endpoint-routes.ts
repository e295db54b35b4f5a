// Writes packages/contract/src/endpoint-routes.ts and endpoint-summaries.ts (`npm run routes`): what the browser
// needs of the contract's endpoint tables (each call's method and path, the audit trail's summaries) without
// building the tables' schemas.
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { format, resolveConfig } from 'prettier';
import { routeTablesSource, summariesSource } from '../packages/contract/src/endpoint-routes-source.ts';

for (const [name, text] of [
  ['endpoint-routes.ts', routeTablesSource()],
  ['endpoint-summaries.ts', summariesSource()],
] as const) {
  const file = resolve(import.meta.dirname, '../packages/contract/src', name);
  await writeFile(file, await format(text, { ...(await resolveConfig(file)), filepath: file }));
  console.log(`${file} written.`);
}
