import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Config } from '../../config.ts';
import type { OutboxRepo } from './outbox.repo.ts';

export interface OutgoingMessage {
  channel: 'mail' | 'sms';
  recipient: string;
  subject: string;
  body: string;
  /** An HTML version of the body, for mail clients that show it. */
  html?: string;
  /** Files sent with a mail over SMTP; the outbox keeps only their names and sizes. */
  attachments?: Array<{ filename: string; content: Buffer; contentType?: string }>;
}

/** The body the outbox keeps: attachments are named, not stored (the table holds text for the administrator). */
function keptBody(message: OutgoingMessage): string {
  if (!message.attachments?.length) return message.body;
  const names = message.attachments.map((a) => `${a.filename} (${a.content.length} bytes)`).join(', ');
  return `${message.body}\n\n[attachments not kept: ${names}]`;
}

/**
 * The one way the platform reaches people. Mail goes over SMTP when SMTP_URL is set; everything else,
 * and every text message (no SMS gateway is reachable), lands in the outbox table the administrator reads.
 */
export function createMessenger(deps: { repo: OutboxRepo; config: Pick<Config, 'smtpUrl' | 'smtpFrom'>; logger: FastifyBaseLogger }) {
  const { repo, config, logger } = deps;
  const transport = config.smtpUrl ? nodemailer.createTransport(config.smtpUrl) : undefined;

  return {
    async send(message: OutgoingMessage): Promise<void> {
      if (message.channel === 'mail' && transport) {
        await transport.sendMail({
          from: config.smtpFrom,
          to: message.recipient,
          subject: message.subject,
          text: message.body,
          html: message.html,
          attachments: message.attachments,
        });
        logger.info({ to: message.recipient, subject: message.subject }, 'mail sent');
        return;
      }
      await repo.insert({ channel: message.channel, recipient: message.recipient, subject: message.subject, body: keptBody(message) });
      // The code or password inside never reaches the log; where to read it does.
      logger.info(
        { channel: message.channel, to: message.recipient, subject: message.subject },
        `${message.channel === 'mail' ? 'mail (no SMTP_URL set)' : 'text message'} kept in the outbox: the administrator reads it under System > Outbox`,
      );
    },
    close() {
      transport?.close();
    },
  };
}

export type Messenger = ReturnType<typeof createMessenger>;
