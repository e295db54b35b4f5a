// Writes the API document the server makes now to docs/openapi/openapi.json (`npm run openapi:snapshot`), unless it
// breaks clients without a new API_VERSION and a changelog entry (apps/server/src/http/openapi-changes.ts).
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { CHANGELOG_PATH, SNAPSHOT_PATH, snapshotVerdict } from '../apps/server/src/http/openapi-changes.ts';
import { openApiDocument, type OpenApiDocument } from '../apps/server/src/http/openapi.ts';

const root = resolve(import.meta.dirname, '..');
const snapshotFile = resolve(root, SNAPSHOT_PATH);
const current = await openApiDocument();
const snapshot = existsSync(snapshotFile) ? (JSON.parse(await readFile(snapshotFile, 'utf8')) as OpenApiDocument) : undefined;
const outcome = snapshot ? snapshotVerdict(snapshot, current, await readFile(resolve(root, CHANGELOG_PATH), 'utf8')) : undefined;
if (outcome?.verdict === 'same') {
  console.log(`${SNAPSHOT_PATH} is up to date (API version ${current.info.version}).`);
} else if (outcome?.verdict === 'refused') {
  console.error(outcome.message);
  process.exitCode = 1;
} else {
  await mkdir(dirname(snapshotFile), { recursive: true });
  await writeFile(snapshotFile, `${JSON.stringify(current, null, 2)}\n`);
  console.log(`${SNAPSHOT_PATH} written (API version ${current.info.version}).`);
}
