import { expect } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';

/** Asserts the server refuses to start on these variables, with a configuration error that names the wrong one. */
export function expectRefusedAtStart(env: Record<string, string>, naming: RegExp) {
  expect(() => loadConfig(env)).toThrow(ConfigError);
  expect(() => loadConfig(env)).toThrow(naming);
}
