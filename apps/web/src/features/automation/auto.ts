import type { ExecuteAutoResult } from '@lumigrid/contract/browser';

/** What a hand-back did, as the user is told: how many devices were released, and the gateways that did not take it. */
export function autoOutcome(result: ExecuteAutoResult): {
  released: number;
  offline: string[];
  refused: Array<{ gatewayName: string; code: number }>;
} {
  return {
    released: result.released,
    offline: result.parts.filter((p) => p.code === 100101).map((p) => p.gatewayName),
    refused: result.parts.filter((p) => p.code !== 0 && p.code !== 100101).map(({ gatewayName, code }) => ({ gatewayName, code })),
  };
}
