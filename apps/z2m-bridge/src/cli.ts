#!/usr/bin/env -S npx tsx
import { Z2mBridge } from './bridge.ts';
import { BRIDGE_ENV, bridgeOptionsFromEnv } from './config.ts';

let options;
try {
  options = bridgeOptionsFromEnv(process.env);
} catch (error) {
  console.error(`lumigrid-z2m-bridge: ${(error as Error).message}`);
  console.error(
    `variables:\n${Object.entries(BRIDGE_ENV)
      .map(([name, what]) => `  ${name}: ${what}`)
      .join('\n')}`,
  );
  process.exit(1);
}
const bridge = new Z2mBridge({ ...options, log: (line) => console.log(line) });
try {
  await bridge.start();
} catch (error) {
  console.error(`lumigrid-z2m-bridge: ${(error as Error).message}`);
  process.exit(1);
}
console.log(
  `lumigrid-z2m-bridge: gateway ${bridge.gatewayMac} online with ${bridge.devices.size} devices (${bridge.refused.length} not offered)`,
);
const stop = () => void bridge.stop().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
