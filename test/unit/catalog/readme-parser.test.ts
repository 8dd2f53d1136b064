import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseReadme, SECTION_SOURCE_LENGTH, UPGRADE_NOTICE_LENGTH } from '../../../shared/catalog/releases/readme/parse-readme.js';
import { README_SECTIONS } from '../../../shared/catalog/releases/readme/readme-sections.js';

/** Readmes shaped as real plugins write them (test/fixtures/readmes/): the directory's own format, readme.md-style headings, lower-case headers and aliases. */
const readme = (name: string) => parseReadme(readFileSync(new URL(`../../fixtures/readmes/${name}.txt`, import.meta.url), 'utf8'));

describe('readme.txt parsing', () => {
  it("reads the plugin directory's format: headers, every section, subheadings, Markdown, upgrade notices", () => {
    const parsed = readme('classic');
    expect([parsed.requires, parsed.tested, parsed.requiresPhp]).toEqual(['6.2', '6.5', '7.4']);
    expect(Object.keys(parsed.sections).sort()).toEqual([...README_SECTIONS].sort());
    const { description, installation, faq, screenshots, changelog } = parsed.sections;
    expect(description).toMatch(/^<p>Acme Contact Forms can manage multiple contact forms/);
    expect(description).toContain('<h4>Docs and support</h4>');
    expect(description).toContain('<a href="https://acme.example/docs/" rel="nofollow noopener">docs</a>');
    expect(description).toContain('<li>use cookies.</li>');
    // The short description stands in only when there is no Description section.
    expect(description).not.toContain('Just another contact form plugin');
    expect(installation).toContain('<ol>\n<li>Upload the entire <code>acme-contact-forms</code> folder');
    expect(installation).toContain('<strong>Plugins &gt; Installed Plugins</strong>');
    expect(faq).toContain('<h4>Does it work with page builders?</h4>\n<p>Yes. Paste the shortcode <code>[acme-contact-form id="1"]</code>');
    expect(screenshots).toBe('<ol>\n<li>screenshot-1.png</li>\n<li>The form editor, with the <strong>Mail</strong> tab open.</li>\n</ol>');
    expect(changelog).toMatch(/^<h4>5\.9\.2<\/h4>\n<ul>\n<li>Fixes a fatal error/);
    expect(changelog).toContain('<h4>5.9</h4>');
    expect(parsed.upgradeNotices).toEqual([
      { version: '5.9.2', notice: 'Fixes a fatal error introduced in 5.9. Update now.' },
      { version: '5.9', notice: 'Requires WordPress 6.2.' },
    ]);
  });

  it('reads readme.md-style headings and headers (with a BOM and CRLF lines), and keeps only safe HTML', () => {
    const parsed = readme('markdown-headings');
    expect([parsed.requires, parsed.tested, parsed.requiresPhp]).toEqual(['6.0', '6.4.3', '8.0']);
    expect(Object.keys(parsed.sections).sort()).toEqual([...README_SECTIONS].sort());
    const { description, installation, faq, screenshots, changelog } = parsed.sections;
    expect(description).toContain('<h4>Features</h4>');
    expect(description).toContain('<em>tracking numbers</em>');
    expect(description).toContain('<th>Plan</th>');
    for (const unsafe of ['<script', 'alert', 'onerror', '<img', 'javascript:', '\r']) expect(description).not.toContain(unsafe);
    expect(description).toContain('<a rel="nofollow noopener">a link</a>');
    expect(installation).toContain('<pre><code>wp plugin install shop-sync --activate\n</code></pre>');
    expect(faq).toContain('<h4>Which warehouses are supported?</h4>');
    expect(faq).toContain('<abbr>EDI</abbr>');
    expect(screenshots).toBe('<ol>\n<li>Settings screen.</li>\n<li>The sync log.</li>\n</ol>');
    expect(changelog).toBe('<h4>3.1.0</h4>\n<ul>\n<li>New: batch export.</li>\n</ul>\n<h4>3.0.0</h4>\n<ul>\n<li>Requires PHP 8.0.</li>\n</ul>');
    expect(parsed.upgradeNotices).toEqual([{ version: '3.0.0', notice: 'PHP 8.0 is now required.' }]);
    // "Other Notes" is not one of the sections the update check shows.
    expect(Object.values(parsed.sections).join('')).not.toContain('translators');
  });

  it('reads lower-case headers, section aliases, unspaced sections, `1)` screenshots and `v`-prefixed notice versions; cuts long notices', () => {
    const parsed = readme('aliases');
    expect([parsed.requires, parsed.tested, parsed.requiresPhp]).toEqual(['5.0', '6.6', '7.2.5']);
    expect(Object.keys(parsed.sections).sort()).toEqual([...README_SECTIONS].sort());
    expect(parsed.sections.description).toBe('<p>Upload a logo under Settings &gt; Login Logo; it replaces the WordPress logo on <code>wp-login.php</code>.</p>');
    expect(parsed.sections.installation).toBe('<p>Activate it. There is nothing else to do.</p>');
    expect(parsed.sections.faq).toBe('<h4>Which sizes work?</h4>\n<p>Anything up to 320 pixels wide.</p>');
    expect(parsed.sections.screenshots).toBe('<ol>\n<li>The login page with a custom logo.</li>\n</ol>');
    expect(parsed.sections.changelog).toContain('<h4>1.0</h4>\n<ul>\n<li>First release.</li>');
    const [notice] = parsed.upgradeNotices;
    expect(notice!.version).toBe('1.0.1');
    expect(notice!.notice).toMatch(/^Sharper logos on retina screens\./);
    expect(notice!.notice).toHaveLength(UPGRADE_NOTICE_LENGTH);
  });

  it('uses the short description when there is no Description section; a file that is no readme gives nothing', () => {
    const short = parseReadme('=== Mini ===\nTested up to: 6.1\n\nDoes *one* thing.\n\n== Changelog ==\n= 1 =\n* Start\n');
    expect(short.sections).toEqual({ description: '<p>Does <em>one</em> thing.</p>', changelog: '<h4>1</h4>\n<ul>\n<li>Start</li>\n</ul>' });
    expect(short.tested).toBe('6.1');
    expect(parseReadme('')).toEqual({ sections: {}, upgradeNotices: [] });
    expect(parseReadme('\u0000\u0001 binary junk')).toMatchObject({ upgradeNotices: [] });
    // A header that names no version fills nothing.
    expect(parseReadme('=== X ===\nRequires PHP: latest\n').requiresPhp).toBeUndefined();
  });

  it('reads the Stable tag as the version it names, but not trunk (DECISIONS §22)', () => {
    expect(parseReadme('=== A ===\nStable tag: 1.4.2\n\nShort.').stableTag).toBe('1.4.2');
    expect(parseReadme('=== A ===\n**Stable tag:** v2.0 \n').stableTag).toBe('v2.0');
    expect(parseReadme('=== A ===\nStable tag: trunk\n').stableTag).toBeUndefined();
    expect(parseReadme('=== A ===\nStable tag:\n').stableTag).toBeUndefined();
  });

  it('keeps a huge section to its first characters', () => {
    const huge = `=== Big ===\n\n== Changelog ==\n${'* A line of changes.\n'.repeat(5000)}`;
    const html = parseReadme(huge).sections.changelog!;
    const items = html.match(/<li>/g)!.length;
    expect(items).toBeLessThan(5000);
    expect(items).toBeGreaterThanOrEqual(Math.floor(SECTION_SOURCE_LENGTH / '* A line of changes.\n'.length) - 1);
  });
});
