import { parseArgs } from 'node:util';
import { isLoopback, runSmokeTest } from './smoke/run.js';

/**
 * `npm run smoke -- --url <base URL> [--email <verified address>]`: the deployed (or `npm start`ed) service from an
 * empty account to a downloaded release, as a vendor and a plugin use it; exits non-zero when any step fails.
 * docs/deploy.md says when to run it and what it leaves behind.
 */
const USAGE = `Usage: npm run smoke -- --url <base URL> [--email <verified address>]
  --url    the service's base URL: npm start's (http://localhost:3000) or the stack output ApiUrl
  --email  the account to run as: registered on the first run, signed in to later (password: SMOKE_PASSWORD).
           Required for a service that is not on this machine: registering mails a verification link to the
           address, and SES counts mail to a made-up address as a bounce against the account.`;

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

let values: { url?: string; email?: string; help?: boolean };
try {
  ({ values } = parseArgs({ options: { url: { type: 'string' }, email: { type: 'string' }, help: { type: 'boolean', short: 'h' } } }));
} catch (error) {
  fail((error as Error).message);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
if (!values.url) fail('--url is required');
let url: URL;
try {
  url = new URL(values.url);
} catch {
  fail(`--url ${values.url} is not a URL`);
}
if (url.protocol !== 'http:' && url.protocol !== 'https:') fail(`--url must be http(s), not ${url.protocol}`);
const password = process.env.SMOKE_PASSWORD;
if (values.email && !password) fail('--email needs the account\'s password in SMOKE_PASSWORD (at least 8 characters)');
if (!values.email && !isLoopback(url.hostname)) fail(`--email is required for ${url.hostname}`);

const passed = await runSmokeTest({
  baseUrl: url.href.replace(/\/+$/, ''),
  account: values.email ? { email: values.email, password: password! } : undefined,
});
process.exit(passed ? 0 : 1);
