import { readFileSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';
import { addPlatformFile, desktopBuild } from '../../support/desktop-fixtures.js';
import { debUpdater } from '../../support/electron-updater.js';
import { newLicense, newProduct, newRelease, plugin, type Tenant } from '../../support/licensing-fixtures.js';
import { newTenant } from '../../support/client.js';
import { electronFeedUrl } from '../../../clients/js/src/desktop-feeds.js';

/** The URL an app configures for electron-updater's generic provider, as the JS client builds it. */
const feedUrl = (productSlug: string, licenseKey: string, machine?: string) => electronFeedUrl({ baseUrl: inject('baseUrl'), productSlug, licenseKey, machine });

async function desktopProduct(tenant: Tenant) {
  const product = await newProduct(tenant, { productType: 'app' });
  const release = async (version: string, fields: Record<string, unknown>, platforms: [string, string][]) => {
    const created = await newRelease(tenant, product.id, { version, ...fields });
    const builds: Record<string, ReturnType<typeof desktopBuild>> = {};
    for (const [platform, fileName] of platforms) builds[platform] = (await addPlatformFile(tenant, product.id, created.id, platform, fileName)).build;
    return { ...created, builds };
  };
  return { product, release };
}

describe('electron-updater reads the licensed feed (DECISIONS §26)', () => {
  it('finds the newest release its license may have, downloads its file and checks its sha512; a beta release reaches only a beta license', async () => {
    const tenant = await newTenant();
    const { product, release } = await desktopProduct(tenant);
    await release('1.0.0', { releaseNotes: 'First.' }, [['linux-x64', 'acme-notes_1.0.0_amd64.deb']]);
    const stable = await release('1.1.0', { releaseNotes: 'Faster: "sync" & search\n- fixed: #12' }, [
      ['linux-x64', 'acme-notes_1.1.0_amd64.deb'],
      ['windows-x64', 'Acme Notes Setup 1.1.0.exe'],
    ]);
    const beta = await release('1.2.0-beta.1', { channel: 'beta' }, [['linux-x64', 'acme-notes_1.2.0-beta.1_amd64.deb']]);
    // Newer, but with no Linux file: the Linux feed does not offer it.
    await release('1.3.0', {}, [['windows-x64', 'Acme Notes Setup 1.3.0.exe']]);
    const stableKey = await newLicense(tenant, product.id);
    const betaKey = await newLicense(tenant, product.id, { channel: 'beta' });

    const updater = debUpdater(feedUrl(product.slug, stableKey.licenseKey, 'machine-1'), '1.0.0');
    const check = await updater.checkForUpdates();
    expect(check?.isUpdateAvailable).toBe(true);
    expect(check?.updateInfo).toMatchObject({ version: '1.1.0', releaseNotes: 'Faster: "sync" & search\n- fixed: #12' });
    const [downloaded] = await updater.downloadUpdate();
    expect(readFileSync(downloaded!).equals(stable.builds['linux-x64']!.bytes)).toBe(true);
    expect((await tenant.get(`/api/products/${product.id}/releases/${stable.id}`)).body.downloadCount).toBe(1);

    const betaCheck = await debUpdater(feedUrl(product.slug, betaKey.licenseKey), '1.1.0').checkForUpdates();
    expect(betaCheck?.updateInfo.version).toBe(beta.version);
    // The stable license is not offered the beta, nor may it download it.
    const betaFile = `/v1/download/${beta.id}/linux-x64/acme-notes_1.2.0-beta.1_amd64.deb?license_key=${stableKey.licenseKey}`;
    expect((await plugin().get(betaFile, { origin: null })).body).toEqual({ error: 'Release not available to this license' });
    expect((await debUpdater(feedUrl(product.slug, stableKey.licenseKey), '1.1.0').checkForUpdates())?.isUpdateAvailable).toBe(false);
  });

  it('refuses a file whose bytes do not match the sha512 the feed lists', async () => {
    const tenant = await newTenant();
    const product = await newProduct(tenant, { productType: 'app' });
    const created = await newRelease(tenant, product.id, { version: '2.0.0' });
    const build = desktopBuild();
    // The vendor recorded another build's digest.
    await addPlatformFile(tenant, product.id, created.id, 'linux-x64', 'app_2.0.0_amd64.deb', { build: { bytes: build.bytes, sha512: desktopBuild().sha512 } });
    const license = await newLicense(tenant, product.id);

    const updater = debUpdater(feedUrl(product.slug, license.licenseKey), '1.0.0');
    expect((await updater.checkForUpdates())?.updateInfo.version).toBe('2.0.0');
    await expect(updater.downloadUpdate()).rejects.toThrow(/sha512 checksum mismatch/);
  });
});
