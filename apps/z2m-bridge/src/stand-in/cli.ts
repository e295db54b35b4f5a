#!/usr/bin/env -S npx tsx
import { Z2mStandIn } from './stand-in.ts';

const url = process.env.Z2M_MQTT_URL ?? 'mqtt://127.0.0.1:1883';
const standIn = new Z2mStandIn({
  url,
  baseTopic: process.env.Z2M_BASE_TOPIC || undefined,
  username: process.env.Z2M_MQTT_USERNAME || undefined,
  password: process.env.Z2M_MQTT_PASSWORD || undefined,
  log: (line) => console.log(line),
});
await standIn.start();
console.log(`Zigbee2MQTT stand-in on ${url} (${standIn.base}): ${[...standIn.devices.keys()].join(', ')}`);
standIn.on('set', (set: { target: string; payload: unknown }) =>
  console.log(`${standIn.base}/${set.target}/set ${JSON.stringify(set.payload)}`),
);
const stop = () => void standIn.stop().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
