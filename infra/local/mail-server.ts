import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';

// aws-ses-v2-local: an SES v2 API stand-in that keeps every sent message in an in-process store.
type SesStoreEmail = {
  messageId: string;
  from: string;
  replyTo: string[];
  destination: { to: string[]; cc: string[]; bcc: string[] };
  subject: string;
  body: { html?: string; text?: string };
  attachments: unknown[];
  at: number;
};
const load = createRequire(import.meta.url);
const sesServer = load('aws-ses-v2-local') as { default: (config: { host: string; port: number }) => Promise<Server> };
const sesStore = load('aws-ses-v2-local/dist/store') as {
  getStoreReadonly: () => { emails: SesStoreEmail[] };
  saveEmail: (email: SesStoreEmail) => void;
};

/** What `GET /_local/mail` shows of one sent e-mail. */
export type SentEmail = { to: string[]; from: string; subject: string; text: string; html: string; at: string };

export type MailServer = { endpoint: string; sent: () => SentEmail[]; stop: () => Promise<void> };

/** Starts the SES stand-in; with `file`, mail survives restarts (saved on stop, restored on start). */
export async function startMailServer(options: { port: number; file?: string }): Promise<MailServer> {
  if (options.file && existsSync(options.file)) {
    for (const email of JSON.parse(readFileSync(options.file, 'utf8')) as SesStoreEmail[]) sesStore.saveEmail(email);
  }
  const server = await sesServer.default({ host: '127.0.0.1', port: options.port });
  return {
    endpoint: `http://127.0.0.1:${options.port}`,
    sent: () =>
      sesStore.getStoreReadonly().emails.map((e) => ({
        to: e.destination.to,
        from: e.from,
        subject: e.subject,
        text: e.body.text ?? '',
        html: e.body.html ?? '',
        at: new Date(e.at * 1000).toISOString(),
      })),
    stop: async () => {
      if (options.file) writeFileSync(options.file, JSON.stringify(sesStore.getStoreReadonly().emails));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
