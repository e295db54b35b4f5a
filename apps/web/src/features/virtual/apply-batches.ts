import type { ParamApplyResult } from '@lumigrid/contract/browser';

/** Devices per apply call: small enough that progress moves often, large enough to keep the gateway's radio busy. */
export const APPLY_BATCH = 5;

/**
 * Applies a template to devices a few at a time, reporting each batch's results as they come, so the dialog
 * shows progress live. A batch the server refuses as a whole (a device removed meanwhile, the network) marks
 * each of its devices with that code, and the next batches still run.
 */
export async function applyInBatches(
  deviceIds: readonly string[],
  send: (ids: string[]) => Promise<ParamApplyResult[]>,
  onResults: (results: ParamApplyResult[]) => void,
  failureOf: (error: unknown) => { code: number; msg: string },
  batch = APPLY_BATCH,
): Promise<void> {
  for (let i = 0; i < deviceIds.length; i += batch) {
    const ids = deviceIds.slice(i, i + batch);
    try {
      onResults(await send(ids));
    } catch (error) {
      const { code, msg } = failureOf(error);
      onResults(ids.map((deviceId) => ({ deviceId, name: '', code, msg })));
    }
  }
}
