import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { awsClientOptions, type Config } from '../../platform/index.js';

export type OutgoingMail = { fromName?: string; to: string; replyTo?: string; subject: string; text: string; html: string };

/** Sends one e-mail; answers the provider's message id. */
export type Mailer = { send(mail: OutgoingMail): Promise<{ messageId: string }> };

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
