import { existsSync } from 'node:fs';

/**
 * The machine's services some suites run against, chosen by explicit variables, never by sniffing ports:
 * DATABASE_URL (PostgreSQL) and TEST_MQTT_URL (an external broker such as Mosquitto). `.ci/run` makes both
 * answer and sets REQUIRE_TEST_SERVICES, so there a suite missing its service fails instead of skipping.
 */
export const TEST_MQTT_URL = process.env.TEST_MQTT_URL;
export const TEST_DATABASE_URL = process.env.DATABASE_URL;

/** Whether a suite's services are configured; says loudly when it is skipped, and fails under REQUIRE_TEST_SERVICES. */
export function servicesFor(suite: string, needs: { mqtt?: boolean; postgres?: boolean; programs?: string[] }): boolean {
  const missing = [
    needs.mqtt && !TEST_MQTT_URL ? 'TEST_MQTT_URL' : '',
    needs.postgres && !TEST_DATABASE_URL ? 'DATABASE_URL' : '',
    ...(needs.programs ?? []).filter((path) => !existsSync(path)),
  ].filter(Boolean);
  if (missing.length === 0) return true;
  const text = `${suite}: SKIPPED because ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} missing`;
  if (process.env.REQUIRE_TEST_SERVICES) throw new Error(`${text} (REQUIRE_TEST_SERVICES is set)`);
  console.warn(`\n!!! ${text}\n`);
  return false;
}

/** The brokers a gateway suite runs on: the embedded Aedes always, the external broker of TEST_MQTT_URL when set. */
export function brokersFor(suite: string): Array<'embedded' | 'mosquitto'> {
  return servicesFor(`${suite} over TEST_MQTT_URL`, { mqtt: true }) ? ['embedded', 'mosquitto'] : ['embedded'];
}
