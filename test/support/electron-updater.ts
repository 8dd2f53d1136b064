import { mkdtempSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type ClientRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configureRequestOptions, configureRequestUrl, HttpExecutor, type DownloadOptions } from 'builder-util-runtime';
import { DebUpdater } from 'electron-updater';
import type { AppAdapter } from 'electron-updater/out/AppAdapter.js';

/**
 * electron-updater's HTTP through Node's own clients: in Electron it uses `net` (electronHttpExecutor.ts); its download
 * logic (redirects, the sha512 check of every file) is the shared base class's, exercised as it is.
 */
class NodeHttpExecutor extends HttpExecutor<ClientRequest> {
  createRequest(options: RequestOptions & { protocol?: string }, callback: (response: unknown) => void): ClientRequest {
    return (options.protocol === 'https:' ? httpsRequest : httpRequest)(options, callback);
  }

  download(url: URL, destination: string, options: DownloadOptions): Promise<string> {
    return options.cancellationToken.createPromise((resolve, reject, onCancel) => {
      const requestOptions = { headers: options.headers || undefined };
      configureRequestUrl(url, requestOptions);
      configureRequestOptions(requestOptions);
      this.doDownload(requestOptions, { destination, options, onCancel, callback: (error) => (error ? reject(error) : resolve(destination)), responseHandler: null }, 0);
    });
  }
}

/**
 * electron-updater's Linux (deb) updater for an installed app of `version`, as an app built by electron-builder has it:
 * Electron's `app` stubbed by an adapter over a temporary directory, whose `app-update.yml` names the generic provider
 * at `feedUrl` (electron-builder writes that file from the app's `publish` configuration).
 */
export function debUpdater(feedUrl: string, version: string): DebUpdater {
  const dir = mkdtempSync(join(tmpdir(), 'electron-updater-'));
  const appUpdateConfigPath = join(dir, 'app-update.yml');
  writeFileSync(appUpdateConfigPath, `provider: generic\nurl: ${JSON.stringify(feedUrl)}\nupdaterCacheDirName: acme-notes-updater\n`);
  const app: AppAdapter = {
    version,
    name: 'Acme Notes',
    isPackaged: true,
    appUpdateConfigPath,
    userDataPath: dir,
    baseCachePath: dir,
    whenReady: async () => {},
    relaunch: () => {},
    quit: () => {},
    onQuit: () => {},
  };
  const updater = new DebUpdater(null, app);
  (updater as unknown as { httpExecutor: HttpExecutor<ClientRequest> }).httpExecutor = new NodeHttpExecutor();
  updater.logger = null;
  updater.autoDownload = false;
  updater.autoInstallOnAppQuit = false;
  return updater;
}
