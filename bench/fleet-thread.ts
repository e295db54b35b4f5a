import { Worker } from 'node:worker_threads';
import type { FleetWorkerData } from './fleet-worker.ts';

/** The simulated gateways' thread (fleet-worker.ts), started from TypeScript under tsx. */
export function fleetThread(data: FleetWorkerData): Worker {
  // A worker does not inherit tsx's loader: it registers it, then loads the TypeScript entry.
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./fleet-worker.ts', import.meta.url).href;
  const boot = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(boot, { eval: true, workerData: data });
}
