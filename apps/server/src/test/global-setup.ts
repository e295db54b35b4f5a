import type { TestProject } from 'vitest/node';
import { createDatabaseTemplates } from './database-templates.ts';

/** Migrates the template databases once for the whole run; the suites copy them. */
export default async function setup(project: TestProject) {
  const { templates, dispose } = await createDatabaseTemplates();
  project.provide('databaseTemplates', templates);
  return dispose;
}
