import { randomInt } from 'node:crypto';
import { KEY_ALPHABET } from '../../platform/index.js';

const GROUPS = 4;
const GROUP_LENGTH = 4;

/** The product's prefix plus four groups of four random key characters joined by `-`. */
export function generateLicenseKey(prefix: string): string {
  const groups = Array.from({ length: GROUPS }, () =>
    Array.from({ length: GROUP_LENGTH }, () => KEY_ALPHABET[randomInt(KEY_ALPHABET.length)]).join(''),
  );
  return `${prefix}${groups.join('-')}`;
}

const KEY_BODY = new RegExp(`(?:[${KEY_ALPHABET}]{${GROUP_LENGTH}}-){${GROUPS - 1}}[${KEY_ALPHABET}]{${GROUP_LENGTH}}$`);

/** True for a search string shaped like a generated key (any prefix): list search then looks it up exactly, and only so. */
export function hasGeneratedKeyShape(search: string): boolean {
  return !search.includes('@') && KEY_BODY.test(search);
}

/**
 * Any key a license can have: generated ones, and keys kept from another system by an import (DECISIONS §16),
 * 8–128 printable characters without spaces. A value of another shape names no license, so every surface answers
 * it as an unknown key before any read. One regular expression test: cheap enough for the edge's hot path.
 */
const STORED_KEY = /^[^\s\p{C}]{8,128}$/u;

export function couldBeLicenseKey(value: string): boolean {
  return STORED_KEY.test(value);
}
