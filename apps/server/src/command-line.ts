import { ConfigError, loadConfig, type Config } from './config.ts';

/** Ends a command with one line, named after the command, that says what a person can fix. */
export function failWith(command: string): (message: string) => never {
  return (message) => {
    console.error(`${command}: ${message}`);
    process.exit(1);
  };
}

/** The configuration from the environment; a setting a person can fix ends the command with one line. */
export function configOrFail(fail: (message: string) => never): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(`configuration: ${error.message}`);
    throw error;
  }
}
