import type { EmergencyRecord, EmergencyRun, LogBookEntry } from '@lumigrid/contract';
import type { LogBookRow, RecordRow, RunRow } from './emergency.repo.ts';

const iso = (d: Date | null) => (d === null ? null : d.toISOString());
const id = (v: bigint | null) => (v === null ? null : String(v));

/** A run as the lists show it; counts from runCounts (none before the first record). */
export function runAnswer(run: RunRow, counts?: { total: number; passed: number; failed: number; done: number }): EmergencyRun {
  const total = counts?.total ?? 0;
  return {
    id: String(run.id),
    taskId: id(run.taskId),
    taskName: run.taskName,
    projectId: String(run.projectId),
    projectName: run.projectName,
    buildName: run.buildName,
    mapName: run.mapName,
    gatewayName: run.gatewayName,
    test: run.test,
    duration: run.duration,
    trigger: run.trigger,
    startedBy: run.startedBy,
    stoppedBy: run.stoppedBy,
    state: run.state,
    result: run.result ?? null,
    startedAt: run.startedAt.toISOString(),
    finishedAt: iso(run.finishedAt),
    total,
    passed: counts?.passed ?? 0,
    failed: counts?.failed ?? 0,
    progress: run.state === 'running' ? (total === 0 ? 0 : Math.floor(((counts?.done ?? 0) / total) * 100)) : 100,
    waves: run.waves,
    currentWave: run.currentWave,
    nextWaveAt: iso(run.nextWaveAt),
  };
}

/** A light's record in a run. */
export function recordAnswer(record: RecordRow, run: Pick<RunRow, 'taskId' | 'taskName' | 'mapName'>): EmergencyRecord {
  return {
    id: String(record.id),
    runId: String(record.runId),
    taskId: id(run.taskId),
    taskName: run.taskName,
    deviceId: id(record.deviceId),
    deviceName: record.deviceName,
    addr: record.addr,
    mapName: run.mapName,
    test: record.test,
    wave: record.wave,
    state: record.state,
    result: record.result,
    passed: record.passed,
    progress: record.progress,
    failures: record.failures,
    faultCode: record.faultCode,
    voltageBefore: record.voltageBefore,
    voltageAfter: record.voltageAfter,
    durationS: record.durationS,
    batteryVoltage: record.batteryVoltage,
    batteryCurrent: record.batteryCurrent,
    batteryTemperature: record.batteryTemperature,
    batteryCells: record.batteryCells,
    powerW: record.powerW,
    startedAt: iso(record.startedAt),
    finishedAt: iso(record.finishedAt),
  };
}

/** A log-book entry with the acknowledgement of a failure, if one was appended. */
export function logBookAnswer(row: LogBookRow, ack: LogBookRow | undefined): LogBookEntry {
  return {
    id: String(row.id),
    seq: row.seq,
    at: row.at.toISOString(),
    type: row.type,
    deviceId: id(row.deviceId),
    deviceName: row.deviceName,
    addr: row.addr,
    buildName: row.buildName,
    mapName: row.mapName,
    taskName: row.taskName,
    runId: id(row.runId),
    test: row.test ?? null,
    trigger: row.trigger ?? null,
    startedBy: row.startedBy,
    stoppedBy: row.stoppedBy,
    durationS: row.durationS,
    ratedDurationS: row.ratedDurationS,
    result: row.result ?? null,
    faultCode: row.faultCode,
    failures: row.failures,
    note: row.note,
    by: row.by,
    refId: id(row.refId),
    acknowledged: ack ? { by: ack.by, at: ack.at.toISOString(), entryId: String(ack.id) } : null,
  };
}
