import type { ReplyErrorCode } from '@lumigrid/protocol';

/** A command the gateway refuses or cannot carry out; its code goes into the reply. */
export class CommandError extends Error {
  constructor(
    readonly code: ReplyErrorCode,
    message: string,
  ) {
    super(message);
  }
}
