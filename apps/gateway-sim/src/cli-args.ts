/** The number a command-line value gives if it is one of 0 or more; undefined otherwise. */
export function nonNegativeNumber(value: string): number | undefined {
  // Number('') is 0: an empty value is a mistake, not a zero.
  const n = value.trim() === '' ? NaN : Number(value);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

/**
 * A command-line option that must be a number of 0 or more: its value, `fallback` when it is absent. A wrong
 * value ends the program with a line naming the option, as a person at a terminal expects.
 */
export function nonNegativeOption(program: string, name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = nonNegativeNumber(value);
  if (n === undefined) {
    console.error(`${program}: --${name} must be a number of 0 or more, not "${value}"`);
    process.exit(1);
  }
  return n;
}
