import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { normaliseMac } from '@lumigrid/protocol';
import { derivePassword } from '@lumigrid/protocol/credentials';
import { configOrFail, failWith } from './command-line.ts';
import { configuredDatabase, openDatabase } from './db/client.ts';
import { createGatewaysRepo } from './modules/gateways/gateways.repo.ts';
import { mosquittoAclFile, mosquittoConf, mosquittoPasswordFile, type MosquittoUser } from './gateway-link/mosquitto-acl.ts';

const USAGE = `Writes Mosquitto's password_file, acl_file and a mosquitto.conf snippet from the provisioned gateways, so an
external broker (MQTT_URL) enforces what the embedded one does: each gateway only its own topics.

  npm run mosquitto-acl -w @lumigrid/server -- --out <dir> --server <user>:<password> [--server ...]
      [--secret <fleet secret>] [--credentials <file>] [--port 1883]

  --server       a server node's broker user (MQTT_URL=mqtt://<user>:<password>@broker); give one per node

  --secret       gateways provisioned with --secret: their passwords are derived again (HMAC-SHA256)
  --credentials  the JSON lines "npm run provision" printed ({ "mac", "password" }), for random passwords
  A gateway whose password is in neither is listed in the ACL but left out of the password file (it cannot
  sign in until it is re-provisioned); the tool says which. Only hashes are stored in Lumigrid's database.

Uses DATABASE_URL or DATA_DIR like the server (docs/operations.md "External Mosquitto").`;

const fail: (message: string) => never = failWith('lumigrid mosquitto-acl');

async function main() {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      server: { type: 'string', multiple: true },
      secret: { type: 'string' },
      credentials: { type: 'string' },
      port: { type: 'string', default: '1883' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const servers = (values.server ?? []).map((pair) => {
    const at = pair.indexOf(':');
    if (at < 1 || at === pair.length - 1) fail(`--server takes <user>:<password>, not "${pair}"`);
    return { username: pair.slice(0, at), password: pair.slice(at + 1) };
  });
  if (!values.out || servers.length === 0) fail(`--out and at least one --server are required\n\n${USAGE}`);
  const known = new Map<string, string>();
  if (values.credentials) {
    for (const line of readFileSync(values.credentials, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const entry = JSON.parse(line) as { mac?: string; password?: string };
      const mac = normaliseMac(entry.mac ?? '');
      if (mac && entry.password) known.set(mac, entry.password);
    }
  }
  const config = configOrFail(fail);
  const database = await openDatabase(configuredDatabase(config));
  try {
    const macs = (await createGatewaysRepo(database.db).provisionedMacsAnyTenant()).sort();
    const users: MosquittoUser[] = [...servers];
    const missing: string[] = [];
    for (const mac of macs) {
      const password = known.get(mac) ?? (values.secret ? derivePassword(values.secret, mac) : undefined);
      if (password) users.push({ username: mac, password });
      else missing.push(mac);
    }
    const out = resolve(values.out);
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'passwd'), mosquittoPasswordFile(users), { mode: 0o600 });
    writeFileSync(join(out, 'acl'), mosquittoAclFile({ serverUsers: servers.map((u) => u.username), gatewayMacs: macs }));
    writeFileSync(
      join(out, 'lumigrid.conf'),
      mosquittoConf({ port: Number(values.port), passwordFile: join(out, 'passwd'), aclFile: join(out, 'acl') }),
    );
    console.log(JSON.stringify({ out, gateways: macs.length, withPassword: users.length - servers.length, missing }));
  } finally {
    await database.close();
  }
}

void main();
