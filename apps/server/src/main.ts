import { buildApp } from './app.ts';
import { configOrFail, failWith } from './command-line.ts';
import { configuredDatabase, openDatabase } from './db/client.ts';
import { BrokerPortInUseError } from './gateway-link/broker.ts';
import { createDrain } from './lifecycle/drain.ts';

const fail: (message: string) => never = failWith('lumigrid');

/** Starts the platform: configuration, database (migrated), gateway link (MQTT), HTTP. Problems a person can fix print one line. */
async function main() {
  const config = configOrFail(fail);
  const database = await openDatabase(configuredDatabase(config), {
    onPoolError: (error) => console.warn(`database connection lost (the pool reconnects): ${error.message}`),
    pgliteWorker: true,
  }).catch((error: Error) =>
    fail(`database: ${error.message}${config.databaseUrl ? ' (check DATABASE_URL)' : ` (data folder ${config.dataDir})`}`),
  );
  const drain = createDrain({ graceMs: config.drainGraceMs, exit: (code) => process.exit(code) });
  // Gateways connect with the credentials provisioned into the gateways table (docs/protocol.md "Provisioning").
  const app = await buildApp({
    config,
    database,
    gatewayLink: {},
    draining: drain.draining,
    jobs: { leaseMs: config.jobLeaseMs, pollMs: config.jobPollMs },
  }).catch((error: Error) => {
    if (error instanceof BrokerPortInUseError) fail(error.message);
    if (config.mqttUrl && /MQTT broker/.test(error.message)) fail(`${error.message} (check MQTT_URL)`);
    throw error;
  });
  if (config.captchaText) app.log.warn('CAPTCHA_TEXT is set: every captcha has the same answer. Use it for automated tests only.');

  // Both signals drain (docs/operations.md "Stopping a node"); a second one changes nothing, the deadline holds.
  const target = {
    jobs: app.jobs,
    gatewayLink: app.gatewayLink,
    close: () => app.close(),
    closeIdleConnections: () => app.server.closeIdleConnections(),
    closeDatabase: () => database.close(),
    logger: app.log,
  };
  process.on('SIGINT', () => void drain.run(target, 'SIGINT'));
  process.on('SIGTERM', () => void drain.run(target, 'SIGTERM'));

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') fail(`port ${config.port} is already in use: set PORT to a free port`);
    throw error;
  }
  app.log.info(`Lumigrid ${config.mode} mode on ${config.publicUrl} (database: ${database.kind})`);
}

void main();
