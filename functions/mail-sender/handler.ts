import { loadConfig } from '../../shared/config.js';
import { createMailer } from '../../shared/mail/mailer.js';
import { createDeps } from '../../shared/runtime.js';
import { createMailSenderHandler } from './app.js';

const config = loadConfig();
export const handler = createMailSenderHandler({ ...createDeps(config, 'mailSender'), mailer: createMailer(config) });
