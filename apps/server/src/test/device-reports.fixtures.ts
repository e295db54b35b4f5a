import type { DeviceState } from '@lumigrid/protocol';
import type { ReportRow } from '../modules/device-reports/device-reports.repo.ts';

/** A dimmer's state as a gateway reports it: online, no fault, on at any level above 0. */
export const dimmer = (addr: string, level: number): DeviceState => ({
  addr,
  kind: 'light-dimmer',
  online: true,
  on: level > 0,
  level,
  fault: 0,
});

/** What the report writer keeps of a device's state reported by gateway `mac` at `reportedAt`, received at `receivedAt`. */
export const reportRow = (mac: string, state: DeviceState, reportedAt: number, receivedAt = reportedAt + 1): ReportRow => ({
  mac,
  addr: state.addr,
  kind: state.kind,
  online: state.online,
  fault: state.fault,
  state,
  reportedAt: new Date(reportedAt).toISOString(),
  receivedAt: new Date(receivedAt).toISOString(),
});
