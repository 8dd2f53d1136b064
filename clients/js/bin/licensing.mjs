#!/usr/bin/env node
// @ts-check
/**
 * `licensing release --product <slug> [--channel beta] [--notes FILE] [--draft] FILE.zip` (DECISIONS §24): publishes a
 * release from CI. The ZIP goes straight to storage through an upload URL; the service reads its version (the plugin
 * header's or theme's `Version:`, else readme.txt's `Stable tag`) and creates the release; the release's id and what the
 * update check now offers are printed. `LICENSING_URL` is the service's base URL, `LICENSING_API_KEY` a secret key
 * (`sk_…`) whose role may change the catalog (developer or above). Any failure prints one line on stderr and exits 1,
 * with no release created. Plain JavaScript for Node 18+, with no dependency, so it runs from a checkout as it is.
 */
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';

const USAGE = 'usage: licensing release --product <slug> [--channel stable|beta|alpha] [--notes FILE] [--draft] FILE.zip';
const CHANNELS = ['stable', 'beta', 'alpha'];
const ZIP_SIGNATURE = [0x50, 0x4b, 0x03, 0x04];

/** A failure to report as it is: one line, exit code 1. */
class Failure extends Error {}

/** The options of `release`, checked before any request is made. */
function releaseOptions(args) {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: { product: { type: 'string' }, channel: { type: 'string' }, notes: { type: 'string' }, draft: { type: 'boolean' } },
    });
  } catch (error) {
    throw new Failure(`${error instanceof Error ? error.message : String(error)} (${USAGE})`);
  }
  const { values, positionals } = parsed;
  if (!values.product) throw new Failure(`--product is required (${USAGE})`);
  if (positionals.length !== 1) throw new Failure(`name exactly one ZIP file (${USAGE})`);
  if (values.channel !== undefined && !CHANNELS.includes(values.channel)) throw new Failure(`--channel must be one of ${CHANNELS.join(', ')}`);
  return { product: values.product, channel: values.channel, notes: values.notes, draft: values.draft === true, file: positionals[0] };
}

/** The service's base URL and API key from the environment. */
function serviceOf(env) {
  const url = env.LICENSING_URL?.trim().replace(/\/+$/, '');
  const key = env.LICENSING_API_KEY?.trim();
  if (!url) throw new Failure('LICENSING_URL is not set (the licensing service\'s base URL)');
  if (!/^https?:\/\//.test(url)) throw new Failure('LICENSING_URL must be an http(s) URL');
  if (!key) throw new Failure('LICENSING_API_KEY is not set (a secret API key, sk_…)');
  if (!key.startsWith('sk_')) throw new Failure('LICENSING_API_KEY must be a secret API key (sk_…)');
  return { url, key };
}

/** A JSON call to the management API; a refusal becomes its `{error}` message. */
async function call(service, method, path, body) {
  let res;
  try {
    res = await fetch(`${service.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${service.key}`, accept: 'application/json', ...(body !== undefined && { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw new Failure(`cannot reach ${service.url}: ${error instanceof Error ? (error.cause?.message ?? error.message) : String(error)}`);
  }
  const text = await res.text();
  let answer;
  try {
    answer = text ? JSON.parse(text) : undefined;
  } catch {
    answer = undefined;
  }
  if (!res.ok) {
    const details = Array.isArray(answer?.details) && answer.details.length > 0 ? `: ${answer.details.map((d) => `${d.path} ${d.message}`).join('; ')}` : '';
    throw new Failure(`${method} ${path} answered ${res.status}: ${answer?.error ?? (text.slice(0, 200) || res.statusText)}${details}`);
  }
  return answer;
}

/** The product of the key's account with this slug. */
async function productBySlug(service, slug) {
  for (let page = 1; ; page++) {
    const list = await call(service, 'GET', `/api/products?search=${encodeURIComponent(slug)}&per_page=100&page=${page}`);
    const product = list.items.find((candidate) => candidate.slug === slug);
    if (product) return product;
    if (page >= list.pagination.totalPages) throw new Failure(`no product with slug ${slug} in this account`);
  }
}

async function release(args, env) {
  const options = releaseOptions(args);
  const service = serviceOf(env);
  const bytes = await readFile(options.file).catch(() => {
    throw new Failure(`cannot read ${options.file}`);
  });
  if (!ZIP_SIGNATURE.every((byte, i) => bytes[i] === byte)) throw new Failure(`${options.file} is not a ZIP archive`);
  const releaseNotes =
    options.notes === undefined
      ? undefined
      : await readFile(options.notes, 'utf8').catch(() => {
          throw new Failure(`cannot read the notes file ${options.notes}`);
        });
  const product = await productBySlug(service, options.product);
  const base = `/api/products/${encodeURIComponent(product.id)}/releases`;
  const fileName = basename(options.file);
  const target = await call(service, 'POST', `${base}/upload-url`, { fileName, fileSize: (await stat(options.file)).size });
  const stored = await fetch(target.uploadUrl, { method: 'PUT', body: bytes, headers: { 'content-type': 'application/zip' } }).catch((error) => {
    throw new Failure(`cannot upload to storage: ${error instanceof Error ? error.message : String(error)}`);
  });
  if (!stored.ok) throw new Failure(`storage refused the upload (${stored.status})`);
  const created = await call(service, 'POST', base, {
    filePath: target.filePath,
    fileName: target.fileName,
    status: options.draft ? 'draft' : 'published',
    ...(options.channel && { channel: options.channel }),
    ...(releaseNotes !== undefined && { releaseNotes }),
  });
  console.log(`Release ${created.id}: ${product.slug} ${created.version} (${created.status}, ${created.channel})`);
  // What a site without a license is offered now (the stable channel): the new release, unless it is a draft or a pre-release channel's.
  const check = await call(service, 'GET', `/v1/wp/update-check?${new URLSearchParams({ slug: product.slug, license_key: '-', version: '0' })}`);
  console.log(`Update check: ${JSON.stringify({ slug: check.slug, version: check.version ?? null, new_version: check.new_version ?? null, requires: check.requires ?? null, requires_php: check.requires_php ?? null, tested: check.tested ?? null })}`);
}

async function main(argv, env) {
  const [command, ...args] = argv;
  if (command !== 'release') throw new Failure(USAGE);
  await release(args, env);
}

main(process.argv.slice(2), process.env).catch((error) => {
  const message = error instanceof Failure ? error.message : `unexpected error: ${error instanceof Error ? error.message : String(error)}`;
  process.stderr.write(`licensing: ${message.replace(/\s*\n\s*/g, ' ')}\n`);
  process.exit(1);
});
