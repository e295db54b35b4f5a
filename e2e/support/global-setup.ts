import './provided.ts';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../apps/server/src/db/client.ts';

/** Migrates one embedded database for the whole run, so that no server spends seconds migrating its own. */
export default async function setup(project: TestProject) {
  const dataDir = await mkdtemp(join(tmpdir(), 'lumigrid-e2e-template-'));
  const database = await openDatabase({ dataDir });
  await database.close();
  project.provide('migratedDataDir', dataDir);
  return () => rm(dataDir, { recursive: true, force: true });
}
