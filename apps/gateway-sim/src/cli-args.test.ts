import { afterEach, describe, expect, it, vi } from 'vitest';
import { nonNegativeNumber, nonNegativeOption } from './cli-args.ts';

describe('a numeric command-line option', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('takes a number of 0 or more, and the fallback when the option is absent', () => {
    expect(nonNegativeNumber('0')).toBe(0);
    expect(nonNegativeNumber('2.5')).toBe(2.5);
    expect(nonNegativeOption('sim', 'count', undefined, 5)).toBe(5);
    expect(nonNegativeOption('sim', 'count', '7', 5)).toBe(7);
  });

  it.each(['-1', 'ten', 'Infinity', '', ' '])('refuses %j', (value) => {
    expect(nonNegativeNumber(value)).toBeUndefined();
  });

  it('ends the program with a line naming the option', () => {
    const exit = vi.spyOn(process, 'exit').mockImplementation((code) => {
      throw new Error(`exit ${String(code)}`);
    });
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => nonNegativeOption('lumigrid-gateway-sim', 'count', '', 1)).toThrow('exit 1');
    expect(exit).toHaveBeenCalledWith(1);
    expect(error).toHaveBeenCalledWith('lumigrid-gateway-sim: --count must be a number of 0 or more, not ""');
  });
});
