import { parseArgs } from 'node:util';
import { normaliseMac } from '@lumigrid/protocol';
import { derivePassword } from '@lumigrid/protocol/credentials';
import { configOrFail, failWith } from './command-line.ts';
import { configuredDatabase, openDatabase } from './db/client.ts';
import { createGatewaysRepo } from './modules/gateways/gateways.repo.ts';
import { createGatewayFleet } from './modules/gateways/gateway-fleet.ts';

const USAGE = `Provisions gateways: each gets MQTT credentials (username = its MAC) and enters the pool, where an
account binds it by MAC. Prints one JSON line per gateway with its password; only a hash is stored.

  npm run provision -w @lumigrid/server -- <MAC> [<MAC> ...] [--password <pw>] [--secret <secret>]

  --password  the password to issue (one MAC only); a random one otherwise
  --secret    derive each password from a shared secret, HMAC-SHA256(secret, MAC) in base64url, first 32
              characters (the gateway simulator's derivePassword), for fleets flashed with the same secret

Uses DATABASE_URL or DATA_DIR like the server (docs/protocol.md "Provisioning").`;

const fail: (message: string) => never = failWith('lumigrid provision');

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { password: { type: 'string' }, secret: { type: 'string' }, help: { type: 'boolean' } },
  });
  if (values.help || positionals.length === 0) {
    console.log(USAGE);
    process.exit(positionals.length === 0 && !values.help ? 1 : 0);
  }
  if (values.password !== undefined && positionals.length > 1) fail('--password issues one password: give one MAC');
  const macs = positionals.map((m) => normaliseMac(m) ?? fail(`not a MAC: ${m}`));
  const config = configOrFail(fail);
  const database = await openDatabase(configuredDatabase(config));
  try {
    const { db } = database;
    const fleet = createGatewayFleet({
      repo: createGatewaysRepo(db),
      logger: { error: (obj: unknown, msg?: string) => console.error(msg, obj) },
    });
    for (const mac of macs) {
      const password = values.password ?? (values.secret ? derivePassword(values.secret, mac) : undefined);
      const issued = await fleet.provision(mac, password);
      console.log(JSON.stringify({ mac: issued.mac, username: issued.mac, password: issued.password }));
    }
  } finally {
    await database.close();
  }
}

void main();
