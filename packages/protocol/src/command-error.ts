import type { ReplyErrorCode } from './commands.ts';

/** A command the gateway refuses or cannot carry out; its code goes into the reply. */
export class CommandError extends Error {
  constructor(
    readonly code: ReplyErrorCode,
    message: string,
  ) {
    super(message);
  }
}
