import './provided.ts';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../apps/server/src/db/client.ts';
import { createPostgresTemplate, withAdmin } from '../../apps/server/src/test/database-templates.ts';
import { CHROMIUM } from './browser.ts';
import { ON_POSTGRES } from './server.ts';

/**
 * Builds the server as `npm start` runs it (apps/server/dist), from the sources of this run, and migrates one
 * embedded database for the whole run, so that no server spends seconds compiling TypeScript or migrating; and
 * starts one Chromium (a fresh profile of its own) in which each file opens its own context, so that no file spends
 * the seconds of a core a browser's start costs.
 */
export default async function setup(project: TestProject) {
  execFileSync(process.execPath, ['apps/server/build/bundle.mjs'], { cwd: resolve(import.meta.dirname, '../..'), stdio: 'inherit' });
  const dataDir = await mkdtemp(join(tmpdir(), 'lumigrid-e2e-template-'));
  const database = await openDatabase({ dataDir });
  await database.close();
  project.provide('migratedDataDir', dataDir);
  const demoSeedDir = await mkdtemp(join(tmpdir(), 'lumigrid-e2e-demo-seed-'));
  project.provide('demoSeedDir', demoSeedDir);
  const postgresTemplate = ON_POSTGRES ? await createPostgresTemplate('lumigrid_e2e') : undefined;
  project.provide('postgresTemplate', postgresTemplate);
  const browser = await chromium.launchServer(CHROMIUM);
  project.provide('browserEndpoint', browser.wsEndpoint());
  return async () => {
    await browser.close();
    await rm(dataDir, { recursive: true, force: true });
    await rm(demoSeedDir, { recursive: true, force: true });
    // The template, the demo seed kept for copying, and any copy a failed file left.
    if (postgresTemplate)
      await withAdmin(async (admin) => {
        const { rows } = await admin.query<{ name: string }>(`select datname as name from pg_database where datname like $1`, [
          `${postgresTemplate}%`,
        ]);
        for (const { name } of rows) await admin.query(`drop database if exists ${name} with (force)`);
      });
  };
}
