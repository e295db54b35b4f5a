import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nonNegativeNumber, nonNegativeOption } from './cli-args.ts';

describe('a numeric command-line option', () => {
  it('takes a number of 0 or more, and the fallback when the option is absent', () => {
    expect(nonNegativeNumber('0')).toBe(0);
    expect(nonNegativeNumber('2.5')).toBe(2.5);
    expect(nonNegativeOption('sim', 'count', undefined, 5)).toBe(5);
    expect(nonNegativeOption('sim', 'count', '7', 5)).toBe(7);
  });

  it.each(['-1', 'ten', 'Infinity', '', ' '])('refuses %j', (value) => {
    expect(nonNegativeNumber(value)).toBeUndefined();
  });

  it('ends the simulator with a line naming the option', () => {
    // A child process, since a wrong value exits: the simulator's own command line, as a person types it.
    const cli = resolve(import.meta.dirname, 'cli.ts');
    const run = spawnSync(process.execPath, ['--import', 'tsx', cli, '--count='], { encoding: 'utf8', timeout: 60_000 });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('lumigrid-gateway-sim: --count must be a number of 0 or more, not ""');
  });
});
