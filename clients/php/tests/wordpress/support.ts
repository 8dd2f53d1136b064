/** The pieces of a real WordPress on this machine, from Debian's packages: MariaDB, PHP's web server, WordPress. */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { crc32 } from 'node:zlib';
import { spawnInGroup, stopGroup } from '../../../../test/support/process-group.js';

const run = promisify(execFile);

export const WORDPRESS_DIR = '/usr/share/wordpress';
export const PACKAGES = ['wordpress', 'mariadb-server', 'php-cli', 'php-mysql', 'php-curl'];

/** What is missing of Debian's packages the test needs (`.ci/run` installs them). */
export function missingPrerequisites(): string[] {
  const missing: string[] = [];
  if (!existsSync(join(WORDPRESS_DIR, 'wp-load.php'))) missing.push('wordpress');
  if (!existsSync('/usr/sbin/mariadbd') || !existsSync('/usr/bin/mariadb-install-db')) missing.push('mariadb-server');
  if (!existsSync('/usr/bin/php')) missing.push('php-cli');
  return missing;
}

function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const tick = async () => {
      if (await check()) return resolve();
      if (Date.now() > deadline) return reject(new Error(`${what} did not start within ${timeoutMs} ms`));
      setTimeout(tick, 100);
    };
    void tick();
  });
}

/** A private MariaDB server on a Unix socket in `dir` (no TCP port), with the empty `databases`. */
export async function startMariaDb(dir: string, databases = ['wordpress']) {
  const data = join(dir, 'mysql');
  const socket = join(dir, 'mysql.sock');
  mkdirSync(data, { recursive: true });
  const asRoot = process.getuid?.() === 0 ? ['--user=root'] : [];
  await run('mariadb-install-db', ['--no-defaults', `--datadir=${data}`, '--auth-root-authentication-method=normal', '--skip-test-db', ...asRoot], { timeout: 120_000 });
  const child = spawnInGroup(
    '/usr/sbin/mariadbd',
    ['--no-defaults', `--datadir=${data}`, `--socket=${socket}`, `--pid-file=${join(dir, 'mysql.pid')}`, '--skip-networking', `--log-error=${join(dir, 'mysql.err')}`, '--innodb-buffer-pool-size=32M', '--skip-log-bin', ...asRoot],
    { stdio: 'ignore' },
  );
  await waitFor(() => existsSync(socket), 'MariaDB');
  await waitFor(async () => {
    try {
      await run('mariadb', ['--no-defaults', `--socket=${socket}`, '-u', 'root', '-e', databases.map((name) => `CREATE DATABASE IF NOT EXISTS ${name};`).join(' ')]);
      return true;
    } catch {
      return false;
    }
  }, 'MariaDB (accepting queries)');
  return { socket, stop: () => stopGroup(child, 10_000) };
}

/**
 * WordPress (Debian's copy) in `dir/<name>` with the database `name` (default `wordpress`), configured for `site` and
 * the database socket, not yet installed. A `network` one may become a multisite network (`enableNetwork`); its sites'
 * addresses are its own options, so it does not pin `WP_HOME`.
 */
export function prepareWordPress(dir: string, options: { site: string; socket: string; fixtures: string; name?: string; network?: boolean }) {
  const name = options.name ?? 'wordpress';
  const wp = join(dir, name);
  cpSync(WORDPRESS_DIR, wp, { recursive: true, verbatimSymlinks: true });
  const salts = ['AUTH_KEY', 'SECURE_AUTH_KEY', 'LOGGED_IN_KEY', 'NONCE_KEY', 'AUTH_SALT', 'SECURE_AUTH_SALT', 'LOGGED_IN_SALT', 'NONCE_SALT']
    .map((name) => `define('${name}', '${randomBytes(24).toString('hex')}');`)
    .join('\n');
  const httpLog = join(dir, `${name}-http.log`);
  const debugLog = join(dir, `${name}-debug.log`);
  const siteConstants = options.network ? "define('WP_ALLOW_MULTISITE', true);" : `define('WP_HOME', '${options.site}');\ndefine('WP_SITEURL', '${options.site}');`;
  const config = readFileSync(join(options.fixtures, 'wp-config.php'), 'utf8')
    .replace('{{DB_NAME}}', name)
    .replace('{{SOCKET}}', options.socket)
    .replace('{{SITE_CONSTANTS}}', siteConstants)
    .replace('{{SALTS}}', salts)
    .replace('{{HTTP_LOG}}', httpLog)
    .replace('{{DEBUG_LOG}}', debugLog);
  writeFileSync(join(wp, 'wp-config.php'), config);
  writeFileSync(httpLog, '');
  mkdirSync(join(wp, 'wp-content', 'mu-plugins'), { recursive: true });
  cpSync(join(options.fixtures, 'mu-plugin.php'), join(wp, 'wp-content', 'mu-plugins', 'licensing-test-env.php'));
  return { dir: wp, httpLog, debugLog };
}

/** Turns an installed WordPress whose network tables exist (`populate_network()`) into a subdirectory network. */
export function enableNetwork(wpDir: string, site: string) {
  const config = join(wpDir, 'wp-config.php');
  const constants = [
    "define('MULTISITE', true);",
    "define('SUBDOMAIN_INSTALL', false);",
    `define('DOMAIN_CURRENT_SITE', '${new URL(site).host}');`,
    "define('PATH_CURRENT_SITE', '/');",
    "define('SITE_ID_CURRENT_SITE', 1);",
    "define('BLOG_ID_CURRENT_SITE', 1);",
  ].join('\n');
  writeFileSync(config, readFileSync(config, 'utf8').replace("define('WP_ALLOW_MULTISITE', true);", `define('WP_ALLOW_MULTISITE', true);\n${constants}`));
}

/**
 * PHP's built-in web server serving WordPress (four workers, so a slow request does not hold the others), in a process
 * group of its own: the workers outlive a parent killed alone, so stopping ends the group. `router`: a router script
 * (the rewrites a network needs); `host`: another loopback address to listen on.
 */
export async function startPhpServer(root: string, port: number, options: { host?: string; router?: string } = {}) {
  const host = options.host ?? '127.0.0.1';
  const child = spawnInGroup('php', ['-S', `${host}:${port}`, '-t', root, ...(options.router ? [options.router] : [])], {
    env: { ...process.env, PHP_CLI_SERVER_WORKERS: '4' },
    stdio: 'ignore',
  });
  await waitFor(async () => {
    try {
      await fetch(`http://${host}:${port}/wp-login.php`, { redirect: 'manual' });
      return true;
    } catch {
      return false;
    }
  }, 'php -S');
  return { url: `http://${host}:${port}`, stop: () => stopGroup(child) };
}

/** A free TCP port on the loopback address. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A TCP server that accepts connections and never answers: a service that hangs. Counts connections. */
export async function stallServer(port: number) {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, resolve);
  });
  return {
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A ZIP archive (stored, no compression) of `files`: what a vendor uploads as a release. */
export function zipArchive(files: Record<string, string | Buffer>): Buffer {
  const local: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(files)) {
    const data = Buffer.isBuffer(content) ? content : Buffer.from(content);
    const fileName = Buffer.from(name);
    const crc = crc32(data);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4); // version needed
    header.writeUInt16LE(0x0800, 6); // UTF-8 names
    header.writeUInt16LE(0, 8); // stored
    header.writeUInt32LE(0, 10); // time and date
    header.writeUInt32LE(crc, 14);
    header.writeUInt32LE(data.length, 18);
    header.writeUInt32LE(data.length, 22);
    header.writeUInt16LE(fileName.length, 26);
    header.writeUInt16LE(0, 28);
    local.push(header, fileName, data);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(0x031e, 4); // made by: Unix
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(0x0800, 8);
    entry.writeUInt16LE(0, 10);
    entry.writeUInt32LE(0, 12);
    entry.writeUInt32LE(crc, 16);
    entry.writeUInt32LE(data.length, 20);
    entry.writeUInt32LE(data.length, 24);
    entry.writeUInt16LE(fileName.length, 28);
    entry.writeUInt32LE(0, 30); // extra and comment lengths
    entry.writeUInt32LE(0, 34); // disk, internal attributes
    entry.writeUInt32LE((0o100644 << 16) >>> 0, 38);
    entry.writeUInt32LE(offset, 42);
    central.push(entry, fileName);
    offset += header.length + fileName.length + data.length;
  }
  const centralSize = central.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...local, ...central, end]);
}

/** A browser session in wp-admin: logs in through wp-login.php and keeps the cookies. */
export class WpAdmin {
  private cookies = new Map<string, string>([['wordpress_test_cookie', 'WP%20Cookie%20check']]);

  constructor(readonly site: string) {}

  private header() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  private keep(res: Response) {
    for (const cookie of res.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const index = pair!.indexOf('=');
      const name = pair!.slice(0, index);
      const value = pair!.slice(index + 1);
      if (value === 'deleted' || /expires=Thu, 01-Jan-1970/i.test(cookie)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async login(user: string, password: string) {
    const body = new URLSearchParams({ log: user, pwd: password, testcookie: '1', 'wp-submit': 'Log In', redirect_to: `${this.site}/wp-admin/` });
    const res = await fetch(`${this.site}/wp-login.php`, { method: 'POST', body, headers: { cookie: this.header() }, redirect: 'manual' });
    this.keep(res);
    if (res.status !== 302 || ![...this.cookies.keys()].some((name) => name.startsWith('wordpress_logged_in_'))) {
      throw new Error(`login failed: ${res.status} ${(await res.text()).slice(0, 500)}`);
    }
  }

  /** GET or POST an admin URL; follows nothing. Returns the status, the body, the location and how long it took. */
  async request(path: string, form?: Record<string, string>) {
    const started = Date.now();
    const res = await fetch(`${this.site}${path}`, {
      method: form ? 'POST' : 'GET',
      body: form ? new URLSearchParams(form) : undefined,
      headers: { cookie: this.header(), referer: `${this.site}${path}` },
      redirect: 'manual',
    });
    this.keep(res);
    const text = await res.text();
    return { status: res.status, text, location: res.headers.get('location'), ms: Date.now() - started };
  }
}
