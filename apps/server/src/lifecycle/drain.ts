import type { FastifyBaseLogger } from 'fastify';
import type { GatewayLink } from '../gateway-link/gateway-link.ts';
import type { JobRunner } from '../jobs/job-runner.ts';

/** The stop of a node, in ms from the signal (docs/operations.md "Stopping a node"). */
export const DRAIN_DEFAULTS = {
  /** /healthz answers 503 this long before the node stops taking connections: the load balancer's checks notice. */
  graceMs: 2_000,
  /** Whatever happens, the process has exited by then (orchestrators kill at 10 s or later). */
  deadlineMs: 10_000,
  /** Gateway commands still waiting then are answered 100112; the rest of the budget closes the node. */
  commandsUntilMs: 7_000,
};

/** What a drain stops, in this order; buildApp's app and the database of main.ts. */
export interface DrainTarget {
  jobs: Pick<JobRunner, 'handOver'>;
  gatewayLink: Pick<GatewayLink, 'pendingCommands' | 'stopCommands'> | undefined;
  /** Fastify's close: closes the STOMP sockets (preClose), stops listening, waits for in-flight requests, then closes the modules. */
  close(): Promise<unknown>;
  /** The HTTP server's: keep-alive connections with no request in flight. */
  closeIdleConnections(): void;
  closeDatabase(): Promise<void>;
  logger: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
}

export interface DrainOptions {
  graceMs?: number;
  deadlineMs?: number;
  commandsUntilMs?: number;
  /** process.exit, unless a test watches. */
  exit: (code: number) => void;
}

/**
 * A node that leaves cleanly: on SIGTERM it answers /healthz 503 at once, hands its running jobs back, keeps
 * serving for the grace so the load balancer takes it out, then stops taking connections, lets in-flight
 * requests finish (gateway commands answered 100112 if their reply has not come by `commandsUntilMs`), closes
 * the browsers' sockets so they reconnect to another node, and exits before `deadlineMs` whatever happens.
 */
export function createDrain(options: DrainOptions) {
  const graceMs = options.graceMs ?? DRAIN_DEFAULTS.graceMs;
  const deadlineMs = options.deadlineMs ?? DRAIN_DEFAULTS.deadlineMs;
  const commandsUntilMs = Math.max(graceMs, options.commandsUntilMs ?? DRAIN_DEFAULTS.commandsUntilMs);
  let draining = false;

  return {
    /** Whether a drain began: /healthz answers 503 from then on. */
    draining: () => draining,

    /** Drains the node and exits; a second signal while draining changes nothing (the deadline holds). */
    async run(target: DrainTarget, signal: string): Promise<void> {
      if (draining) return;
      draining = true;
      const { logger } = target;
      const startedAt = Date.now();
      logger.info({ signal, graceMs, deadlineMs }, 'draining: /healthz answers 503, the node stops after the grace');
      const deadline = setTimeout(() => {
        logger.error({ deadlineMs }, 'drain did not finish in time; exiting now');
        options.exit(1);
      }, deadlineMs);
      deadline.unref();
      const commands = setTimeout(() => {
        const waiting = target.gatewayLink?.pendingCommands() ?? 0;
        if (waiting > 0) logger.warn({ commands: waiting }, 'gateway commands without a reply are answered 100112');
        target.gatewayLink?.stopCommands();
      }, commandsUntilMs);
      commands.unref();
      try {
        // Jobs get the grace to finish; the others are queued again for the nodes that stay.
        const handOver = target.jobs.handOver(graceMs).catch((err: unknown) => logger.warn({ err }, 'running jobs not handed back'));
        await Promise.all([new Promise((wake) => setTimeout(wake, graceMs)), handOver]);
        // A keep-alive connection whose request ends after the close began would hold the close open: let it go.
        const idle = setInterval(() => target.closeIdleConnections(), 100);
        await target.close().finally(() => clearInterval(idle));
        clearTimeout(commands);
        await target.closeDatabase();
        logger.info({ ms: Date.now() - startedAt }, 'drained');
        clearTimeout(deadline);
        options.exit(0);
      } catch (err) {
        logger.error({ err }, 'drain failed; exiting');
        clearTimeout(deadline);
        options.exit(1);
      }
    },
  };
}

export type Drain = ReturnType<typeof createDrain>;
