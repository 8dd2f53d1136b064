import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { awsClientOptions, type Config } from '../../platform/index.js';

export type OutgoingMail = { fromName?: string; to: string; replyTo?: string; subject: string; text: string; html: string };

/** Sends one e-mail; answers the provider's message id. */
export type Mailer = { send(mail: OutgoingMail): Promise<{ messageId: string }> };

/**
 * SES's refusals of the message itself, which sending it again cannot change: `MessageRejected` (in the SES sandbox,
 * every recipient that is not a verified identity) and `BadRequestException` (an address SES does not take). What
 * concerns the account (sending paused, the sender's domain not verified) or SES's own state (throttled, failing)
 * is not among them: it clears, or someone must act, so the message is tried again and pages if it keeps failing.
 */
const PERMANENT_REFUSALS = new Set(['MessageRejected', 'BadRequestException']);

/** SES's name for a permanent refusal of `error`'s message, or undefined when sending it again may succeed. */
export function permanentRefusal(error: unknown): string | undefined {
  const name = (error as { name?: string } | undefined)?.name;
  return name && PERMANENT_REFUSALS.has(name) ? name : undefined;
}

/**
 * The sender as SES takes it: the configured address (the verified identity) under the vendor's name.
 * A name beyond plain ASCII goes as a MIME encoded-word, which SES requires for the display name.
 */
export function fromHeader(address: string, name: string | undefined): string {
  const display = name?.replace(/[\r\n]+/g, ' ').trim();
  if (!display) return address;
  if (/^[\x20-\x7e]*$/.test(display)) return `"${display.replace(/["\\]/g, '\\$&')}" <${address}>`;
  return `=?UTF-8?B?${Buffer.from(display, 'utf8').toString('base64')}?= <${address}>`;
}

/** SES (v2 API) from the configured sender address; locally the SES stand-in (`SES_ENDPOINT`). */
export function createMailer(config: Config<'mail'>): Mailer {
  const ses = new SESv2Client(awsClientOptions(config, config.endpoints.ses));
  const charset = 'UTF-8';
  return {
    async send(mail) {
      const { MessageId } = await ses.send(
        new SendEmailCommand({
          FromEmailAddress: fromHeader(config.mailFrom, mail.fromName),
          Destination: { ToAddresses: [mail.to] },
          ReplyToAddresses: mail.replyTo ? [mail.replyTo] : undefined,
          Content: {
            Simple: {
              // A line break in a subject would end the header: a vendor's product name never does that.
              Subject: { Data: mail.subject.replace(/[\r\n]+/g, ' '), Charset: charset },
              Body: { Text: { Data: mail.text, Charset: charset }, Html: { Data: mail.html, Charset: charset } },
            },
          },
        }),
      );
      return { messageId: MessageId ?? '' };
    },
  };
}
