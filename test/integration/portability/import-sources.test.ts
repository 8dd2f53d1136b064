import { describe, expect, it } from 'vitest';
import { newTenant, type Client } from '../../support/client.js';
import { finishedImport, importFixture } from '../../support/imports.js';
import { newProduct, plugin, type Tenant } from '../../support/licensing-fixtures.js';

/**
 * Each source system's real export (issue 47, DECISIONS §27), as test/fixtures/imports/ has it: written from the
 * system's own export code (EDD Software Licensing's `EDD_SL_License_Export` before and since 3.6, License Manager for
 * WooCommerce's `Export::exportLicenseKeysCsv` and a dump of its table, Gumroad's `Exports::PurchaseExportService`) or
 * API documents (Freemius's licenses, users and installs; Lemon Squeezy's `license-keys` and `license-key-instances`
 * pages), each with the rows that are not ordinary. Every valid row is imported with its key, status, expiry, seats and
 * activations; a bad row is reported by its number and nothing of it is written; what the vendor should know is a
 * warning of its row.
 */

type Kept = {
  status: 'active' | 'expired' | 'revoked' | 'suspended';
  seats: number;
  expiresAt: string | null;
  activatedCount: number;
  stagingCount: number;
  customerEmail: string;
  customerName?: string | null;
};

const UNLIMITED = 1_000_000;

/** What a kept license should be: active unless said, lifetime unless an expiry is given. */
const kept = (customerEmail: string, seats: number, fields: Partial<Kept> = {}): Kept => ({
  status: 'active',
  seats,
  expiresAt: null,
  activatedCount: 0,
  stagingCount: 0,
  customerEmail,
  ...fields,
});

type Query = Record<string, string>;

/** Imports `file` into a new product of `tenant` over HTTP and answers the import and the product's licenses by key. */
async function imported(tenant: Tenant, query: Query, file: string, contentType = 'text/csv') {
  const product = await newProduct(tenant);
  const params = new URLSearchParams({ productId: product.id, ...query });
  const res = await tenant.request('POST', `/api/imports?${params}`, { rawBody: file, headers: { 'content-type': contentType } });
  expect(res.status, res.text).toBe(202);
  const job = await finishedImport(tenant, res.body.id);
  const licenses = new Map<string, Record<string, unknown>>();
  for (let page = 1; ; page++) {
    const { body } = await tenant.get(`/api/licenses?product_id=${product.id}&per_page=100&page=${page}`);
    for (const license of body.items) licenses.set(license.licenseKey, license);
    if (page >= body.pagination.totalPages) break;
  }
  return { product, job, licenses };
}

/** Every expected key is there as expected, and nothing else is. */
function expectKept(licenses: Map<string, Record<string, unknown>>, expected: Record<string, Kept>) {
  const fields = (license: Record<string, unknown> | undefined) =>
    license && {
      status: license.status,
      seats: license.seats,
      expiresAt: license.expiresAt,
      activatedCount: license.activatedCount,
      stagingCount: license.stagingCount,
      customerEmail: license.customerEmail,
      ...('customerName' in (expected[license.licenseKey as string] ?? {}) ? { customerName: license.customerName } : {}),
    };
  for (const [key, license] of Object.entries(expected)) expect([key, fields(licenses.get(key))]).toEqual([key, license]);
  expect([...licenses.keys()].sort()).toEqual(Object.keys(expected).sort());
}

/** An upload of `text` through a presigned URL, as a large file (or a side file) is sent; its upload id. */
async function uploaded(tenant: Client, text: string): Promise<string> {
  const { body } = await tenant.post('/api/imports/upload-url', { fileSize: Buffer.byteLength(text) });
  const put = await fetch(body.uploadUrl, { method: 'PUT', body: text });
  expect(put.status).toBe(200);
  return body.uploadId;
}

const validate = (key: string, domain?: string) => plugin().post('/v1/licenses/validate', { license_key: key, ...(domain ? { domain } : {}) }, { origin: null });

describe('an EDD Software Licensing export', () => {
  const EDD = {
    jane: 'c00e1c9468ed6512033ee7ca732775cf',
    ali: '1c394e30b4e6d3e5327ac5ff8f61e179',
    lena: '6319eff18590fde91668115acc65c1e8',
    kim: '3f719b6217ff72661b69632e7c355596',
    agency: '520b63f3a31ef568768464132ca14ef1',
    omar: 'c543503785b1cdd41ebf2e4059228bb2',
    sam: '5674e18d3dc52a084ee94a554ef90af7',
    devon: '4cc9342b0e7f5bfac525a82ed1ac9e4c',
    priya: '66b80cad25646a01ea337a7a68464edd',
    orphan: 'a467346746f4e19f7c8e0939d3566d52',
    sean: 'a4f47c9f44ac55c751639b4297c8503d',
    max: '628a984092d183c8addb62de936c8cab',
    jane2: '935df58baa200f785492e8b16019ea23',
    hana: 'ec8a82bf1ada8dba231c40f1211ff012',
    ruth: 'd2318d51726139a90367bbd5af7bbff3',
    tom: 'd46f80c44eeeb8ac61aff7a912a3e848',
    ines: 'c25258df505e4f8191a93ff6868e9236',
    yuki: '922dc303b49f665258e460152336abc8',
    olga: '8cff87e286371590e5bdb971881cee86',
    fay: '0eafcb17bab0b4506e5754b5816e8ba1',
    gil: '2c62caa86d67805b33bf571ae5a4d30e',
    hugo: '562419f484471f5bc169ad7fb65b4f31',
  };

  it("(3.6 and later) imports one product's licenses with every site, local copies free, dates in the store's zone", async () => {
    const tenant = await newTenant();
    const file = importFixture('edd-licenses.csv');
    const { job, licenses } = await imported(tenant, { format: 'edd', productName: 'SEO Pro', timezone: 'America/New_York' }, file);
    expect(job).toMatchObject({ status: 'done', counts: { licenses: 18, customers: 17, activations: 28, skipped: 1 }, errorCount: 2 });
    expect(job.errors).toEqual([
      { row: 16, message: 'license key must be 8 to 128 printable characters without spaces' },
      { row: 17, message: 'Expiration Date: "next year" is not a date' },
    ]);
    expect(job.warnings).toEqual([
      { row: 7, message: '3 active sites are more than its 2 seats: seats raised to 3, so every one keeps working' },
      { row: 11, message: 'no customer e-mail (its customer was deleted in EDD): imported for edd-110@import.invalid; set the real address on the license' },
    ]);
    // EDD writes its local time (here New York's) as dates and as "Unix seconds" alike.
    expectKept(licenses, {
      [EDD.jane]: kept('jane@example.com', 2, { expiresAt: '2027-09-16T03:59:59.000Z', activatedCount: 1, customerName: 'Jane Doe' }),
      [EDD.ali]: kept('ali@example.com', 1, { expiresAt: '2027-10-03T03:59:59.000Z' }),
      [EDD.lena]: kept('lena@example.com', 5, { status: 'expired', expiresAt: '2025-06-02T03:59:59.000Z' }),
      [EDD.kim]: kept('chargeback@example.com', 1, { status: 'suspended', expiresAt: '2027-11-21T04:59:59.000Z' }),
      // Lifetime, limit 0: unlimited.
      [EDD.agency]: kept('agency@example.com', UNLIMITED, { activatedCount: 5 }),
      // Three sites on a limit of two: all kept, the seats raised.
      [EDD.omar]: kept('omar@example.com', 3, { expiresAt: '2027-12-02T04:59:59.000Z', activatedCount: 3 }),
      // The copies EDD does not count (`.local`, `.dev`, Kinsta staging, WP Engine, a private address) take no seat.
      [EDD.sam]: kept('sam@example.com', 1, { expiresAt: '2028-02-15T04:59:59.000Z', activatedCount: 1, stagingCount: 3 }),
      [EDD.devon]: kept('devon@example.com', 1, { expiresAt: '2028-03-04T04:59:59.000Z', activatedCount: 1, stagingCount: 1 }),
      [EDD.priya]: kept('priya@example.com', 1, { expiresAt: '2028-04-05T03:59:59.000Z', activatedCount: 1, stagingCount: 1 }),
      [EDD.orphan]: kept('edd-110@import.invalid', 1, { expiresAt: '2027-07-08T03:59:59.000Z', activatedCount: 1, customerName: null }),
      // EDD's exporter adds slashes (O\'Brien) and writes a " as '.
      [EDD.sean]: kept('sean@example.ie', 1, { expiresAt: '2028-05-06T03:59:59.000Z', customerName: 'Seán O\'Brien' }),
      [EDD.max]: kept('max@example.com', 3, { expiresAt: '2028-06-07T03:59:59.000Z', activatedCount: 1, stagingCount: 1, customerName: "Max 'The Dev' Power" }),
      [EDD.jane2]: kept('jane@example.com', 3, { expiresAt: '2028-01-21T04:59:59.000Z', activatedCount: 2 }),
      [EDD.hana]: kept('hana@example.jp', 1, { expiresAt: '2027-07-02T03:59:59.000Z', activatedCount: 1 }),
      [EDD.tom]: kept('tom@example.com', 1, { expiresAt: '2027-08-09T03:59:59.000Z', activatedCount: 1 }),
      [EDD.ines]: kept('ines@example.pt', 10, { expiresAt: '2027-09-10T03:59:59.000Z', activatedCount: 2, stagingCount: 2 }),
      [EDD.yuki]: kept('yuki@example.com', 1, { expiresAt: '2027-10-11T03:59:59.000Z' }),
      [EDD.olga]: kept('olga@example.com', 1, { status: 'expired', expiresAt: '2025-01-16T04:59:59.000Z' }),
    });
    // Nothing of a bad row, nor of another product's, was written.
    for (const key of [EDD.ruth, EDD.fay]) expect((await validate(key)).body.error).toBe('License key not found');
    expect((await tenant.get(`/api/licenses?search=${EDD.jane}`)).body.items[0].createdAt).toBe('2025-09-15T18:32:10.000Z');
    // A local copy validates without a seat of its own; the over-the-limit license's sites all work.
    expect((await validate(EDD.sam, 'staging-samlee.kinsta.cloud')).body.valid).toBe(true);
    expect((await validate(EDD.omar, 'blog.omar.io')).body.valid).toBe(true);

    // The same all-products file, its other product into another product of the account.
    const forms = await imported(tenant, { format: 'edd', productName: 'forms plus' }, file);
    expect(forms.job).toMatchObject({ status: 'done', counts: { licenses: 3, customers: 3, activations: 1, skipped: 0 }, errorCount: 0 });
    expect([...forms.licenses.keys()].sort()).toEqual([EDD.fay, EDD.gil, EDD.hugo].sort());
  });

  it('refuses an all-products export without productName as a whole, naming its products', async () => {
    const tenant = await newTenant();
    const { job, licenses } = await imported(tenant, { format: 'edd' }, importFixture('edd-licenses.csv'));
    expect(job).toMatchObject({
      status: 'failed',
      failure: 'The file holds the licenses of more than one product (SEO Pro, Forms Plus): import it once per product, naming it with productName',
      counts: { licenses: 0 },
    });
    expect(licenses.size).toBe(0);
  });

  it('(before 3.6) reads Email, " - " between sites, Unlimited limits and 1970 for lifetime', async () => {
    const tenant = await newTenant();
    const { job, licenses } = await imported(tenant, { format: 'edd', timezone: 'Europe/Berlin' }, importFixture('edd-licenses-2.x.csv'));
    expect(job).toMatchObject({ status: 'done', counts: { licenses: 8, customers: 8, activations: 9, skipped: 0 }, errorCount: 0 });
    expect(job.warnings).toEqual([{ row: 6, message: '2 active sites are more than its 1 seat: seats raised to 2, so every one keeps working' }]);
    expectKept(licenses, {
      '2820ba7cf337321a071e6e2168129ac5': kept('anna@example.com', 2, { expiresAt: '2027-03-01T08:00:00.000Z', activatedCount: 1 }),
      '2f6fb19ef2b4bcda917985aa29e8eead': kept('ben@example.com', UNLIMITED, { activatedCount: 2, stagingCount: 1 }),
      '99774308d8e325f5518783416948a1e0': kept('carla@example.com', 1, { expiresAt: '2027-05-03T09:00:00.000Z' }),
      '7e5e8b9ada75964290b8f67531dd83c5': kept('dirk@example.com', 1, { status: 'expired', expiresAt: '2015-06-04T10:00:00.000Z' }),
      '88c317327c7136faa52fc00ca7eece41': kept('eve@example.com', 2, { expiresAt: '2027-07-05T11:00:00.000Z', activatedCount: 2 }),
      '4f8557326dc7ed892bc881c557a011f7': kept('fritz@example.com', 1, { status: 'suspended', expiresAt: '2027-08-06T12:00:00.000Z' }),
      bd0634469368eba5862033c1d91c5a91: kept('gina@example.com', UNLIMITED, { expiresAt: '2027-09-07T13:00:00.000Z', activatedCount: 1, stagingCount: 1 }),
      '17c34277912d8edc7da7886471f21bfb': kept('hal@example.com', UNLIMITED, { expiresAt: '2027-01-08T15:00:00.000Z', activatedCount: 1 }),
    });
  });
});

describe('a License Manager for WooCommerce export', () => {
  const WC = {
    john: '1422-EAC0-A5BC-885F',
    maria: 'CC5F-B61B-C4CB-0AC5',
    tae: 'B08E-4577-5275-FEBF',
  };

  it('imports sold keys with the e-mails of a users file, leaves unsold stock out and says why', async () => {
    const tenant = await newTenant();
    const usersUploadId = await uploaded(tenant, importFixture('woocommerce-users.csv'));
    const { job, licenses } = await imported(tenant, { format: 'woocommerce', usersUploadId }, importFixture('woocommerce-licenses.csv'));
    expect(job).toMatchObject({ status: 'done', counts: { licenses: 15, customers: 13, activations: 0, skipped: 5 }, errorCount: 2 });
    expect(job.errors).toEqual([
      { row: 22, message: 'license key must be 8 to 128 printable characters without spaces' },
      { row: 23, message: 'expires_at: "31/12/2027" is not a date' },
    ]);
    const stock = 'unsold stock key (no order): not imported';
    expect(job.warnings).toEqual([
      { row: 9, message: 'the export has no e-mail (add a users file or an e-mail column): imported for woocommerce-order-1208@import.invalid; set the real address on the license' },
      { row: 10, message: 'user 99 is not in the users file: imported for woocommerce-user-99@import.invalid; set the real address on the license' },
      ...[17, 18, 19, 20, 21].map((row) => ({ row, message: stock })),
    ]);
    expect(licenses.get(WC.john)).toMatchObject({ customerEmail: 'john@example.com', customerName: 'John Doe', status: 'active', seats: 3, expiresAt: '2027-04-01T10:00:00.000Z' });
    expect(licenses.get(WC.tae)).toMatchObject({ customerEmail: 'tae@example.com', status: 'active', seats: 5 });
    const byEmail = (email: string) => [...licenses.values()].filter((license) => license.customerEmail === email);
    // John's lifetime key of unlimited sites, beside the yearly one.
    const john = byEmail('john@example.com').map((license) => [license.seats, license.expiresAt]);
    expect(john).toHaveLength(2);
    expect(john).toEqual(expect.arrayContaining([[3, '2027-04-01T10:00:00.000Z'], [UNLIMITED, null]]));
    expect(byEmail('lisa@example.com')).toMatchObject([{ status: 'expired', expiresAt: '2026-01-01T00:00:00.000Z' }]);
    // Sold, then made inactive by the vendor: suspended; ACTIVE after a sale: active.
    expect(byEmail('paul@example.com')).toMatchObject([{ status: 'suspended' }]);
    expect(byEmail('ben@example.com')).toMatchObject([{ status: 'active' }]);
    expect(byEmail('maria@example.com')).toHaveLength(2);
    for (const key of ['2CE5-E4BC-8DFD-EE99', '321F-1BD1-2F94-842B', 'B0E6-EBA4-C7D1-8305']) expect(licenses.has(key)).toBe(false);
    expect((await validate(WC.maria)).body.valid).toBe(true);
  });

  it('without a users file, gives each customer a placeholder address named after the user, and says so', async () => {
    const tenant = await newTenant();
    // The same export's keys, changed so as not to be taken already by the import above (a key exists once in the service).
    const file = importFixture('woocommerce-licenses.csv').replace(/\b[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}\b/g, '$&-B');
    const { job, licenses } = await imported(tenant, { format: 'woocommerce' }, file);
    expect(job).toMatchObject({ status: 'done', counts: { licenses: 15, customers: 13, skipped: 5 }, errorCount: 2, warningCount: 20 });
    expect(licenses.get(`${WC.john}-B`)).toMatchObject({ customerEmail: 'woocommerce-user-7@import.invalid' });
    expect(job.warnings[0]).toEqual({
      row: 2,
      message: 'the export has no e-mail (add a users file or an e-mail column): imported for woocommerce-user-7@import.invalid; set the real address on the license',
    });
  });

  it("refuses a dump of the plugin's table row by row, saying the keys are encrypted and what to export instead", async () => {
    const tenant = await newTenant();
    const { job, licenses } = await imported(tenant, { format: 'woocommerce' }, importFixture('woocommerce-table-dump.csv'));
    const encrypted =
      "license_key is encrypted (this is a dump of the plugin's table): export the keys with License Manager's own CSV export " +
      '(License keys → select them → Bulk actions → Export (CSV)), which writes them decrypted';
    expect(job).toMatchObject({ status: 'done', counts: { licenses: 0 }, errors: [2, 3, 4].map((row) => ({ row, message: encrypted })) });
    expect(licenses.size).toBe(0);
  });
});

describe("Freemius's API pages", () => {
  const FS = {
    nadia: 'sk_bfd9c442756c1dc30d2a12fb7b0aa',
    two: 'sk_56db905c9807b966fcb9e6da69027',
    lifetime: 'sk_fc15fe9f6f80bafcffb215503633f',
  };

  it('import licenses with their users and installs, in any order and over several pages; sandbox licenses are left out', async () => {
    const tenant = await newTenant();
    const { job, licenses } = await imported(tenant, { format: 'freemius' }, importFixture('freemius-api.jsonl'), 'application/x-ndjson');
    expect(job).toMatchObject({ status: 'done', counts: { licenses: 19, customers: 18, activations: 10, skipped: 2 }, errorCount: 1 });
    expect(job.errors).toEqual([{ row: 22, message: 'expiration: "not a date" is not a date' }]);
    const sandbox = "sandbox license (a test purchase in Freemius's sandbox): not imported";
    expect(job.warnings).toEqual([
      { row: 6, message: '3 active sites are more than its 2 seats: seats raised to 3, so every one keeps working' },
      { row: 7, message: sandbox },
      { row: 8, message: 'the license is not linked to a Freemius user yet: imported for freemius-300008@import.invalid; set the real address on the license' },
      { row: 9, message: 'user 5999 is not in the file (add the users page): imported for freemius-300009@import.invalid; set the real address on the license' },
      { row: 14, message: sandbox },
    ]);
    expect(licenses.size).toBe(19);
    // Its installs: the site and the local copy (no seat) of the first; only the active install of the tenth.
    expect(licenses.get(FS.nadia)).toMatchObject({ customerEmail: 'nadia@example.com', customerName: 'Nadia Petrova', seats: 1, activatedCount: 1, stagingCount: 1, expiresAt: '2027-03-01T12:00:00.000Z' });
    expect(licenses.get(FS.two)).toMatchObject({ seats: 3, activatedCount: 2 });
    expect(licenses.get(FS.lifetime)).toMatchObject({ seats: UNLIMITED, expiresAt: null });
    const ofUser = [...licenses.values()].filter((license) => license.customerEmail === 'nadia@example.com');
    expect(ofUser.map((license) => [license.seats, license.activatedCount]).sort()).toEqual([[1, 1], [2, 1]]);
    const statuses = [...licenses.values()].map((license) => license.status);
    expect(['expired', 'revoked'].map((status) => statuses.filter((s) => s === status).length)).toEqual([1, 1]);
    expect((await validate(FS.nadia, 'nadia-shop.com')).body.valid).toBe(true);
  });

  it('import one page sent as application/json, pretty-printed', async () => {
    const tenant = await newTenant();
    const [licensesPage] = importFixture('freemius-api.jsonl').split('\n');
    const page = JSON.parse(licensesPage!) as { licenses: unknown[] };
    // Its keys changed so as not to be taken already by the import above.
    const licenses = page.licenses.slice(0, 3).map((license) => ({ ...(license as object), secret_key: `${(license as { secret_key: string }).secret_key}_json` }));
    const { job } = await imported(tenant, { format: 'freemius' }, JSON.stringify({ licenses }, null, 2), 'application/json');
    // Without the users page, each license is imported for a placeholder and says so.
    expect(job).toMatchObject({ status: 'done', counts: { licenses: 3, customers: 3 }, warningCount: 3 });
  });
});

describe("Lemon Squeezy's API pages", () => {
  const LS = {
    nia: 'C53D6EBA-D395-5A00-A123-55B8A615F534',
    raj: '9EF00A8A-9D1D-5E25-8DBE-8E30167EA93A',
  };

  it('import license keys with their instances as activations (a host name as a site, else a machine); test-mode keys are left out', async () => {
    const tenant = await newTenant();
    const { job, licenses } = await imported(tenant, { format: 'lemonsqueezy' }, importFixture('lemonsqueezy-api.jsonl'), 'application/x-ndjson');
    expect(job).toMatchObject({ status: 'done', counts: { licenses: 19, customers: 18, activations: 14, skipped: 1 }, errorCount: 1 });
    expect(job.errors).toEqual([{ row: 21, message: 'status: "paused" is not one of inactive, active, expired, disabled' }]);
    expect(job.warnings).toEqual([
      { row: 6, message: '2 active sites and 1 machine are more than its 2 seats: seats raised to 3, so every one keeps working' },
      { row: 7, message: 'test-mode license key (made by a test purchase): not imported' },
      { row: 8, message: 'no user_email: imported for lemonsqueezy-8@import.invalid; set the real address on the license' },
    ]);
    expect(licenses.get(LS.nia)).toMatchObject({ customerEmail: 'nia@example.com', customerName: 'Nia Okafor', seats: 5, activatedCount: 2, expiresAt: null });
    expect(licenses.get(LS.raj)).toMatchObject({ status: 'active', seats: 1, activatedCount: 0 });
    const byEmail = (email: string) => [...licenses.values()].find((license) => license.customerEmail === email);
    expect(byEmail('sofia@example.com')).toMatchObject({ seats: UNLIMITED, activatedCount: 2, stagingCount: 1 });
    expect(byEmail('tom@example.com')).toMatchObject({ status: 'expired', expiresAt: '2026-03-01T00:00:00.000Z', activatedCount: 0 });
    expect(byEmail('ugo@example.com')).toMatchObject({ status: 'suspended' });
    expect(byEmail('vera@example.com')).toMatchObject({ seats: 3, activatedCount: 3, expiresAt: '2027-06-01T00:00:00.000Z' });
    // The instance named "Nia's MacBook Pro" is a machine, by its identifier, with its name.
    const nia = (await tenant.get(`/api/licenses/${licenses.get(LS.nia)!.id}`)).body;
    expect(nia.activations.map((a: { domain: string; machine: string | null; name: string | null }) => [a.domain, a.machine, a.name]).sort()).toEqual([
      [null, 'b13533ee-fecf-5d71-ac86-e011579f4c38', "Nia's MacBook Pro"],
      ['nia-studio.com', null, null],
    ]);
    expect((await plugin().post('/v1/licenses/validate', { license_key: LS.nia, machine: 'b13533ee-fecf-5d71-ac86-e011579f4c38' }, { origin: null })).body.valid).toBe(true);
  });
});

describe("Gumroad's sales export", () => {
  it('imports each key once with what the seller did to it: refunds, disputes and revoked access end it, disabled keys are suspended, gifts go to the recipient', async () => {
    const tenant = await newTenant();
    const { job, licenses } = await imported(tenant, { format: 'gumroad' }, importFixture('gumroad-sales.csv'));
    expect(job).toMatchObject({ status: 'done', counts: { licenses: 18, customers: 17, activations: 0, skipped: 2 }, errorCount: 1 });
    expect(job.errors).toEqual([{ row: 23, message: 'license key must be 8 to 128 printable characters without spaces' }]);
    expect(job.warnings).toEqual([
      { row: 22, message: 'the sale has no e-mail: imported for gumroad-021abcd21@import.invalid; set the real address on the license' },
    ]);
    expectKept(licenses, {
      '143C8BD6-9290DA23-5210B190-6405817C': kept('vik@example.com', 3, { customerName: 'Vik Rao' }),
      '91DAC570-5F24BB3D-0FDC8A25-F2EB931C': kept('ada@example.com', 1),
      'E3FF260F-896FCA09-C9909B87-5D2F3159': kept('cole@example.com', 1, { status: 'revoked' }),
      '5CD9830B-6A215523-5274820E-C1D1A8ED': kept('dee@example.com', 1),
      '0C0922CD-6D5994B1-E6EA81BA-93F75BF9': kept('eric@example.com', 1, { status: 'revoked' }),
      '1AE193D1-160FF390-8472E16A-72EC6F2F': kept('faye@example.com', 1),
      'C7F2601B-FF4A953D-6D87EA69-D975A247': kept('gabe@example.com', 1, { status: 'revoked' }),
      'DD283C17-E589DFA9-66561101-DCE2BCBA': kept('hope@example.com', 1, { status: 'suspended' }),
      // Ivan's gift is Irina's key (her name is not in the sale).
      '818D76A4-643AA555-D6AC4B34-A2F2CF58': kept('irina@example.com', 1, { customerName: null }),
      'DD2423D3-A750B656-D73C485B-6A0BF367': kept('jill@example.com', 1),
      '97A614D6-3115E227-1CE98865-94278ACE': kept('kai@example.com', 1, { status: 'expired', expiresAt: '2025-08-01T00:00:00.000Z' }),
      '11271555-6D353123-8E4F1893-71B4CD48': kept('lou@example.com', 1, { expiresAt: '2027-01-01T00:00:00.000Z' }),
      'BEB2432B-3FDBBEB0-4C11CC1D-2E5731E0': kept('ned@example.com', 1),
      '19691393-07E8C6F8-1749F2F8-F3B5886C': kept('ola@example.com', 1),
      'E205B3EE-32D3B5B8-FA64E3E6-1A7D705D': kept('pat@example.com', 1),
      '0ACE26E1-793F0176-63ADC21B-D4029CE5': kept('quin@example.com', 1),
      '9E37FF32-5F2A3E2C-32B5E5D1-CD9AB17C': kept('ada@example.com', 2),
      '36E4ED8F-AFCBCEFE-522B02AE-DE430511': kept('gumroad-021abcd21@import.invalid', 1),
    });
    expect((await validate('DD283C17-E589DFA9-66561101-DCE2BCBA')).body.error).toBe('License is suspended');
    expect((await validate('C7F2601B-FF4A953D-6D87EA69-D975A247')).body.error).toBe('License has been revoked');
  });
});

describe('the parameters of one format', () => {
  it('are refused with another format, or when they name nothing, with 400 and nothing recorded', async () => {
    const tenant = await newTenant();
    const product = await newProduct(tenant);
    const post = (query: string) =>
      tenant.request('POST', `/api/imports?productId=${product.id}&${query}`, { rawBody: 'license_key,customer_email\nPARAM-kept-0001,p@example.com\n', headers: { 'content-type': 'text/csv' } });
    const refusals: [string, string][] = [
      ['format=csv&timezone=Europe/Berlin', 'timezone is read by the edd format only'],
      ['format=gumroad&productName=SEO%20Pro', 'productName is read by the edd format only'],
      ['format=edd&usersUploadId=abcdefghijklmnop', 'usersUploadId is read by the woocommerce format only'],
      ['format=edd&timezone=Mars/Olympus', 'timezone must be an IANA time zone name, such as Europe/Berlin'],
      ['format=woocommerce&usersUploadId=abcdefghijklmnop', 'usersUploadId names no uploaded file'],
    ];
    for (const [query, error] of refusals) {
      const res = await post(query);
      expect([query, res.status, res.body.error]).toEqual([query, 400, error]);
    }
    expect((await tenant.get('/api/imports')).body.pagination.total).toBe(0);
  });
});
