/**
 * A stable, privacy-preserving fingerprint of this machine (DECISIONS §18's `machine`): HMAC-SHA-256 of the operating
 * system's own machine id, keyed by your product (`salt`), as 64 hex characters. The raw id never leaves the machine,
 * and two products see unrelated fingerprints of the same machine, so vendors cannot join their records on it.
 *
 * Where the id comes from (stable across reboots and app updates; a reinstall of the OS changes it):
 * - Linux (Node, Bun, Deno, Electron): `/etc/machine-id`, else `/var/lib/dbus/machine-id` (systemd/D-Bus).
 * - macOS: `IOPlatformUUID` of `ioreg -rd1 -c IOPlatformExpertDevice` (the hardware UUID).
 * - Windows: `MachineGuid` under `HKLM\SOFTWARE\Microsoft\Cryptography` (`reg query`), set at OS install.
 * - FreeBSD: `/etc/hostid`.
 * Deno reads them through its `node:` modules (run with `--allow-read` and, on macOS and Windows, `--allow-run`).
 * Browsers have no machine id: pass `readMachineId` (e.g. a random id kept in storage) there.
 */
export type FingerprintOptions = {
  /** Keys the hash: use your product's slug or public key, so your fingerprints are yours alone. */
  salt?: string;
  /** Reads the raw machine id; default: the platform's (above). For tests and platforms without one. */
  readMachineId?: () => Promise<string>;
};

const DEFAULT_SALT = 'licensing-service/machine';

export async function machineFingerprint(options: FingerprintOptions = {}): Promise<string> {
  const id = (await (options.readMachineId ?? readOsMachineId)()).trim();
  if (!id) throw new Error('This machine has no readable machine id: pass readMachineId');
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey('raw', encoder.encode(options.salt ?? DEFAULT_SALT), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(id)));
  return Array.from(mac, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

type NodeModules = {
  process: { platform: string };
  fs: { readFile(path: string, encoding: 'utf8'): Promise<string> };
  childProcess: { execFile(command: string, args: string[], options: { timeout: number }, done: (error: unknown, stdout: unknown) => void): void };
};

/** A `node:` module by name, typed by what is used here: the package ships no Node types, and browsers never load these. */
const nodeModule = (name: string): Promise<unknown> => import(/* @vite-ignore */ name);

/** Node, Bun, Deno and Electron's main process all provide `node:` modules. */
async function readOsMachineId(): Promise<string> {
  const { platform } = (await nodeModule('node:process')) as NodeModules['process'];
  const { readFile } = (await nodeModule('node:fs/promises')) as NodeModules['fs'];
  const run = async (command: string, args: string[]) => {
    const { execFile } = (await nodeModule('node:child_process')) as NodeModules['childProcess'];
    return new Promise<string>((resolve, reject) => execFile(command, args, { timeout: 5000 }, (error, stdout) => (error ? reject(error) : resolve(String(stdout)))));
  };
  switch (platform) {
    case 'darwin': {
      const match = /"IOPlatformUUID"\s*=\s*"([^"]+)"/.exec(await run('ioreg', ['-rd1', '-c', 'IOPlatformExpertDevice']));
      return match?.[1] ?? '';
    }
    case 'win32': {
      const match = /MachineGuid\s+REG_SZ\s+(\S+)/.exec(await run('reg', ['query', 'HKLM\\SOFTWARE\\Microsoft\\Cryptography', '/v', 'MachineGuid']));
      return match?.[1] ?? '';
    }
    case 'freebsd':
      return readFile('/etc/hostid', 'utf8');
    default:
      for (const path of ['/etc/machine-id', '/var/lib/dbus/machine-id']) {
        const id = await readFile(path, 'utf8').catch(() => '');
        if (id.trim()) return id;
      }
      return '';
  }
}
