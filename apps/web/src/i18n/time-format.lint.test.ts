import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const eslint = new ESLint({ cwd: root });

/** The time rules a snippet breaks when it sits at `path` in the repository. */
async function timeRules(code: string, path: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}${path}` });
  return result!.messages.filter((m) => m.message.includes('time-format.ts')).map((m) => m.ruleId ?? '');
}

describe('the one-formatter lint rule', () => {
  const screen = 'apps/web/src/pages/somewhere/new-screen.tsx';

  it('refuses a screen that formats a time on its own', async () => {
    for (const code of [
      'export const a = (at: string) => new Date(at).toLocaleString();',
      "export const a = (at: Date) => at.toLocaleDateString('en');",
      'export const a = (at: Date) => at.toLocaleTimeString();',
      "export const a = (at: number) => new Intl.DateTimeFormat('en', { timeZone: 'UTC' }).format(at);",
      "import dayjs from 'dayjs';\nexport const a = (at: string) => dayjs(at).format('YYYY-MM-DD');",
      "import type { Dayjs } from 'dayjs';\nexport const a = (at: Dayjs) => at.format('HH:mm');",
      'export const a = (at: Date) => at.toISOString().slice(0, 10);',
    ]) {
      expect(await timeRules(code, screen), code).not.toEqual([]);
    }
  }, 60_000);

  it('lets the formatter itself, and request dates built from today, through', async () => {
    expect(
      await timeRules("export const a = (at: number) => new Intl.DateTimeFormat('en').format(at);", 'apps/web/src/i18n/time-format.ts'),
    ).toEqual([]);
    expect(await timeRules("import dayjs from 'dayjs';\nexport const today = () => dayjs().format('YYYY-MM-DD');", screen)).toEqual([]);
    expect(await timeRules('export const kwh = (n: number) => n.toLocaleString();', screen)).toEqual([]);
  }, 60_000);
});
