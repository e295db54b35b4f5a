import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const serverDir = resolve(import.meta.dirname, '../..');

describe('migrations', () => {
  it('match the Drizzle schema: generating from it adds nothing', () => {
    const out = mkdtempSync(join(tmpdir(), 'lumigrid-migrations-'));
    cpSync(resolve(serverDir, 'src/db/migrations'), out, { recursive: true });
    const before = readdirSync(out).filter((f) => f.endsWith('.sql'));
    const configFile = join(out, 'drizzle.config.mjs');
    writeFileSync(
      configFile,
      `export default { dialect: 'postgresql', schema: ${JSON.stringify(resolve(serverDir, 'src/db/schema/index.ts'))}, out: ${JSON.stringify(relative(serverDir, out))} };`,
    );
    // drizzle-kit reads `out` relative to its working folder, and may exit 0 on errors: check what it says.
    const said = execFileSync(resolve(serverDir, '../../node_modules/.bin/drizzle-kit'), ['generate', '--config', configFile], {
      cwd: serverDir,
      encoding: 'utf8',
      stdio: 'pipe',
    });
    expect(said).toMatch(/No schema changes|migration file/);
    const after = readdirSync(out).filter((f) => f.endsWith('.sql'));
    expect(after, 'the schema changed without a migration: run npm run db:generate').toEqual(before);
  }, 60_000);
});
