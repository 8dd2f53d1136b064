import { createLoadedDeps, FUNCTION_CONFIG_SECTIONS, loadConfig } from '../../shared/platform/index.js';
import { createMailer } from '../../shared/messaging/index.js';
import { createMailSenderHandler } from './app.js';

// The sender address is this function's alone: no other function reads (or can be stopped by) MAIL_FROM.
const config = loadConfig(process.env, FUNCTION_CONFIG_SECTIONS.mailSender);
export const handler = createMailSenderHandler({ ...(await createLoadedDeps(config, 'mailSender')), mailer: createMailer(config) });
