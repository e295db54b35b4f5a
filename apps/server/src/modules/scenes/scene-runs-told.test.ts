import { describe, expect, it } from 'vitest';
import { TestClock } from '../../test/harness.ts';
import type { WebhookEventSource } from '../webhooks/webhooks.service.ts';
import { gatewaySceneId } from './scene-config.ts';
import type { ScenesRepo } from './scenes.repo.ts';
import { createScenesService } from './scenes.service.ts';

/** A repo that knows one gateway and one scene part on it, and records the runs written. */
function repoWithOnePart() {
  const runs: unknown[] = [];
  const repo = {
    gatewayByMac: async (mac: string) => (mac === 'AABBCCDDEEFF' ? { id: 10n, tenantId: 1n } : undefined),
    partByNumber: async (q: { gatewayId: bigint; number: number }) =>
      q.gatewayId === 10n && q.number === 3 ? { sceneId: 40n, tenantId: 1n, projectId: 7n, sceneName: 'Evening' } : undefined,
    insertRuns: async (rows: unknown[]) => void runs.push(...rows),
  } as unknown as ScenesRepo;
  return { repo, runs };
}

describe('scene runs told to integrators (webhooks)', () => {
  it('tells a run a gateway started after it is recorded, and nothing of a manual one or an unknown gateway', async () => {
    const { repo, runs } = repoWithOnePart();
    const told: WebhookEventSource[] = [];
    const sut = createScenesService({
      repo,
      access: {} as never,
      gateways: {} as never,
      link: undefined,
      clock: new TestClock(),
      logger: { error: () => undefined, warn: () => undefined },
      images: {} as never,
      events: { emit: (source) => void told.push(source as WebhookEventSource) },
    });
    const ts = Date.parse('2026-11-23T18:00:00Z');
    const event = {
      type: 'scene',
      ts,
      scene: gatewaySceneId(3, 'start'),
      trigger: 'schedule',
      schedule: 2,
      targets: 12,
      failed: 1,
    } as const;
    await sut.onUp({ mac: 'AABBCCDDEEFF', channel: 'event', message: event });
    await sut.onUp({ mac: 'AABBCCDDEEFF', channel: 'event', message: { ...event, trigger: 'manual' } });
    await sut.onUp({ mac: '001122334455', channel: 'event', message: event });
    expect(runs).toHaveLength(1);
    expect(told).toEqual([
      {
        kind: 'scene.ran',
        tenantId: 1n,
        projectId: 7n,
        at: new Date(ts),
        data: {
          sceneId: '40',
          name: 'Evening',
          trigger: 'schedule',
          then: 'start',
          parts: [{ gatewayId: '10', code: 0, targets: 12, failed: 1 }],
        },
      },
    ]);
  });
});
