import { Marked } from 'marked';
import sanitizeHtml from 'sanitize-html';
import type { ReadmeSection } from './readme-sections.js';

/**
 * A WordPress plugin readme.txt (https://developer.wordpress.org/plugins/wordpress-org/how-your-readme-txt-works/),
 * read as the plugin directory reads it: `=== Name ===`, `Header: value` lines, a short description, then
 * `== Section ==` blocks whose `= Subheading =` lines are headings; the text is Markdown. Headings may also be
 * written `#`/`##`/`###`, as in readme.md files. What comes out is safe HTML only (sanitize-html's allowlist).
 */
export type ParsedReadme = {
  /** "Tested up to", "Requires at least", "Requires PHP": the version each names, when it names one. */
  tested?: string;
  requires?: string;
  requiresPhp?: string;
  /** "Stable tag": the version the readme says is current; absent when it names none (`trunk`). */
  stableTag?: string;
  sections: Partial<Record<ReadmeSection, string>>;
  /** `== Upgrade Notice ==`: per version, plain text of at most UPGRADE_NOTICE_LENGTH characters. */
  upgradeNotices: { version: string; notice: string }[];
};

/** The plugin directory shows at most 300 characters of an upgrade notice. */
export const UPGRADE_NOTICE_LENGTH = 300;
/** Markdown kept of one section: the readme's item must stay far below DynamoDB's 400 KB with all five. */
export const SECTION_SOURCE_LENGTH = 40_000;

/** Section titles as authors write them, lower-cased, to their key; others ("Other Notes", …) are not shown. */
const SECTION_NAMES: Record<string, ReadmeSection | 'upgrade_notice'> = {
  description: 'description',
  installation: 'installation',
  'frequently asked questions': 'faq',
  faq: 'faq',
  screenshots: 'screenshots',
  changelog: 'changelog',
  'change log': 'changelog',
  'upgrade notice': 'upgrade_notice',
};

const HEADERS: Record<string, 'tested' | 'requires' | 'requiresPhp'> = {
  'tested up to': 'tested',
  'requires at least': 'requires',
  'requires php': 'requiresPhp',
};

const markdown = new Marked({ gfm: true, async: false });

const SAFE_HTML: sanitizeHtml.IOptions = {
  allowedTags: sanitizeHtml.defaults.allowedTags.filter((tag) => !['h1', 'h2'].includes(tag)),
  allowedAttributes: { a: ['href', 'title', 'rel'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'nofollow noopener' }) },
};

const TITLE = /^\s*(?:===\s*(.*?)\s*===|#\s+(.*?)\s*#*)\s*$/;
const SECTION = /^\s*(?:==\s*(.*?)\s*==|##\s+(.*?)\s*#*)\s*$/;
const SUBHEADING = /^\s*(?:=\s*(.*?)\s*=|###\s+(.*?)\s*#*)\s*$/;
/** `Header: value`, also as readme.md files write it (`**Header:** value`, `* Header: value`). */
const HEADER = /^[\s*-]*([A-Za-z][A-Za-z ]{0,40}?)\s*:[\s*]*(.*)$/;

const firstOf = (match: RegExpMatchArray) => (match[1] ?? match[2] ?? '').trim();

/** The version a header names ("5.8", "WordPress 6.4.2", "7.4 or higher" → "7.4"), if it names one. */
const versionIn = (value: string) => value.match(/\d+(?:\.\d+)*/)?.[0];

/** A stable tag as written ("1.4.2", "v2.0"), unless it names no version ("trunk", empty). */
function stableTagIn(value: string): string | undefined {
  const tag = value.replace(/[*\s]+$/, '').trim();
  return tag && tag.toLowerCase() !== 'trunk' && /\d/.test(tag) ? tag : undefined;
}

/** Markdown to safe HTML, `= Subheading =` lines as `<h4>`. */
function toHtml(source: string): string {
  const text = source
    .slice(0, SECTION_SOURCE_LENGTH)
    .split('\n')
    .map((line) => {
      const sub = line.match(SUBHEADING);
      return sub ? `#### ${firstOf(sub)}` : line;
    })
    .join('\n');
  return sanitizeHtml(markdown.parse(text) as string, SAFE_HTML).trim();
}

const plainText = (source: string) =>
  sanitizeHtml(markdown.parse(source) as string, { allowedTags: [], allowedAttributes: {} })
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, UPGRADE_NOTICE_LENGTH);

/** `= 1.2 =` blocks of a section, each version with the text under it. */
function versionBlocks(source: string): { version: string; text: string }[] {
  const blocks: { version: string; lines: string[] }[] = [];
  for (const line of source.split('\n')) {
    const sub = line.match(SUBHEADING);
    if (sub) blocks.push({ version: firstOf(sub).replace(/^v(?=\d)/i, ''), lines: [] });
    else blocks.at(-1)?.lines.push(line);
  }
  return blocks.map(({ version, lines }) => ({ version, text: lines.join('\n').trim() }));
}

/** Parses a readme.txt; a file that is not one gives no headers and no sections, never an error. */
export function parseReadme(text: string): ParsedReadme {
  const lines = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n').split('\n');
  const readme: ParsedReadme = { sections: {}, upgradeNotices: [] };
  const bodies = new Map<ReadmeSection | 'upgrade_notice' | 'ignored', string[]>();
  const shortDescription: string[] = [];
  let current: ReadmeSection | 'upgrade_notice' | 'ignored' | 'headers' | 'short' = 'headers';
  let index = 0;
  while (index < lines.length && lines[index]!.trim() === '') index++;
  if (index < lines.length && TITLE.test(lines[index]!)) index++;
  for (; index < lines.length; index++) {
    const line = lines[index]!;
    const section = line.match(SECTION);
    if (section) {
      current = SECTION_NAMES[firstOf(section).toLowerCase()] ?? 'ignored';
      if (!bodies.has(current)) bodies.set(current, []);
      continue;
    }
    if (current === 'headers') {
      const header = line.match(HEADER);
      if (header) {
        const name = header[1]!.trim().toLowerCase();
        const field = HEADERS[name];
        const version = field && versionIn(header[2]!);
        if (field && version) readme[field] = version;
        const tag = name === 'stable tag' && stableTagIn(header[2]!);
        if (tag) readme.stableTag = tag;
        continue;
      }
      if (line.trim() === '') continue;
      current = 'short';
    }
    if (current === 'short') shortDescription.push(line);
    else bodies.get(current)!.push(line);
  }
  for (const [name, body] of bodies) {
    const source = body.join('\n').trim();
    if (name === 'ignored' || source === '') continue;
    if (name === 'upgrade_notice') {
      readme.upgradeNotices = versionBlocks(source).flatMap(({ version, text }) => (version && text ? [{ version, notice: plainText(text) }] : []));
    } else {
      readme.sections[name] = name === 'screenshots' ? screenshotsHtml(source) : toHtml(source);
    }
  }
  const short = shortDescription.join('\n').trim();
  if (!readme.sections.description && short) readme.sections.description = toHtml(short);
  return readme;
}

/** `1. Caption` lines as an ordered list of captions (the images themselves are the plugin's assets, not the ZIP's). */
function screenshotsHtml(source: string): string {
  return toHtml(source.replace(/^\s*(\d+)[.)]\s*/gm, (_, n: string) => `${n}. `));
}
