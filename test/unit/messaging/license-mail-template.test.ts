import { describe, expect, it } from 'vitest';
import { renderLicenseMail, type LicenseMailView } from '../../../shared/messaging/mail/license-mail-template.js';
import { fromHeader } from '../../../shared/messaging/mail/mailer.js';

const base: LicenseMailView = { productName: 'Widget Pro', licenseKey: 'WIDGET-ABCD-EFGH-JKLM-NPQR', seats: 3, renews: false };

describe('license e-mail', () => {
  it('says when the license renews, ends, or that it never does', () => {
    const renewing = renderLicenseMail({ ...base, expiresAt: '2027-11-23T10:00:00.000Z', renews: true });
    expect(renewing.text).toContain('Renews on: 23 November 2027 (your subscription renews it)');
    const fixed = renderLicenseMail({ ...base, expiresAt: '2027-01-05T00:00:00.000Z' });
    expect(fixed.text).toContain('Valid until: 5 January 2027');
    const lifetime = renderLicenseMail(base);
    expect(lifetime.text).toContain('Expires: Never (lifetime license)');
    expect(lifetime.html).toContain('Never (lifetime license)');
  });

  it('links the hosted customer portal when the vendor has it on, escaped in HTML', () => {
    const portalUrl = 'https://licenses.example.com/portal?public_key=pk_abc&x=<y>';
    const mail = renderLicenseMail({ ...base, portalUrl });
    expect(mail.text).toContain(`Manage your sites, downloads and billing in the customer portal:\n    ${portalUrl}\n`);
    expect(mail.html).toContain('href="https://licenses.example.com/portal?public_key=pk_abc&amp;x=&lt;y&gt;"');
    expect(renderLicenseMail(base).text).not.toContain('customer portal');
  });

  it('counts seats in words a buyer reads', () => {
    expect(renderLicenseMail({ ...base, seats: 1 }).text).toContain('Seats: 1 site\n');
    expect(renderLicenseMail(base).text).toContain('Seats: 3 sites\n');
  });

  it('greets the buyer by name and signs with the seller, with where replies go', () => {
    const mail = renderLicenseMail({ ...base, customerName: 'Jane', sellerName: 'Acme', replyTo: 'help@acme.example' });
    expect(mail.text.startsWith('Hi Jane,\n')).toBe(true);
    expect(mail.text).toContain('Thank you for buying Widget Pro from Acme.');
    expect(mail.text).toContain('Reply to this e-mail and it reaches Acme (help@acme.example).');
    expect(mail.text.trimEnd().endsWith('— Acme')).toBe(true);
    const anonymous = renderLicenseMail(base);
    expect(anonymous.text.startsWith('Hello,\n')).toBe(true);
    expect(anonymous.text).not.toContain('—');
  });

  it('escapes every value in the HTML part and keeps the plain-text part as written', () => {
    const mail = renderLicenseMail({ ...base, productName: 'Tom & <b>Jerry</b>', customerName: '"><script>x</script>', sellerName: "O'Brien" });
    expect(mail.html).not.toContain('<b>Jerry</b>');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('Tom &amp; &lt;b&gt;Jerry&lt;/b&gt;');
    expect(mail.html).toContain('O&#39;Brien');
    expect(mail.text).toContain('Tom & <b>Jerry</b>');
    expect(mail.subject).toBe('Your Tom & <b>Jerry</b> license key');
  });

  it('puts the key in both parts, and the HTML part in one table-laid document', () => {
    const mail = renderLicenseMail(base);
    expect(mail.text).toContain(`\n    ${base.licenseKey}\n`);
    expect(mail.html).toContain(base.licenseKey);
    expect(mail.html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(mail.html).toContain('role="presentation"');
  });
});

describe('sender header', () => {
  it('quotes an ASCII name, encodes any other, and leaves a bare address without one', () => {
    expect(fromHeader('a@b.example', 'Acme "Plugins"')).toBe('"Acme \\"Plugins\\"" <a@b.example>');
    expect(fromHeader('a@b.example', 'Café')).toBe(`=?UTF-8?B?${Buffer.from('Café').toString('base64')}?= <a@b.example>`);
    expect(fromHeader('a@b.example', 'Evil\r\nBcc: x@y.example')).toBe('"Evil Bcc: x@y.example" <a@b.example>');
    expect(fromHeader('a@b.example', '  ')).toBe('a@b.example');
    expect(fromHeader('a@b.example', undefined)).toBe('a@b.example');
  });

  it("shows a Composer-enabled product's repository, auth.json with the buyer's key and the require command, and nothing of it otherwise", () => {
    const mail = renderLicenseMail({ ...base, composerPackage: 'acme/widget-pro', composerRepository: 'https://licensing.example/composer' });
    expect(mail.text).toContain('Install with Composer\n1. Add the repository to your composer.json:\n    {\n      "repositories": [');
    expect(mail.text).toContain('"url": "https://licensing.example/composer"');
    expect(mail.text).toContain('"licensing.example": {\n          "username": "WIDGET-ABCD-EFGH-JKLM-NPQR"');
    expect(mail.text).toContain('3. Then install it:\n    composer require acme/widget-pro');
    expect(mail.html).toContain('composer require acme/widget-pro');
    expect(mail.html).toContain('&quot;username&quot;: &quot;WIDGET-ABCD-EFGH-JKLM-NPQR&quot;');
    expect(renderLicenseMail(base).text).not.toContain('Composer');
  });
});
