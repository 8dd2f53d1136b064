import { describe, expect, it } from 'vitest';
import { keepRequireBannerWhereRead, readsRequire } from '../../../infra/constructs/require-banner.mjs';

const BANNER = "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);";

describe('readsRequire', () => {
  it('counts a free require, however it is read', () => {
    expect(readsRequire('var c=require("node:crypto");')).toBe(true);
    expect(readsRequire('var r=typeof require<"u"?require:void 0;')).toBe(true);
    expect(readsRequire('f(...require("x"));')).toBe(true);
    expect(readsRequire('var o={require};')).toBe(true);
  });

  it('does not count a property named require, or the word in a string, comment, template or regular expression', () => {
    expect(readsRequire('module.require("x");a?.require;')).toBe(false);
    expect(readsRequire('throw new Error("call [require(\\"x\\");] first");/* require */')).toBe(false);
    expect(readsRequire('var t=`require(x)`,r=/require\\(/;')).toBe(false);
  });

  it('counts code it cannot read as reading it', () => {
    expect(readsRequire('var a="unterminated;')).toBe(true);
  });
});

describe('keepRequireBannerWhereRead', () => {
  it('takes the banner and its line off the files that do not read require, and leaves the others', () => {
    const files = new Map([
      ['/b/index.mjs', `${BANNER}\nimport{a}from"./chunks/c.mjs";export const handler=a;`],
      ['/b/chunks/c.mjs', `${BANNER}\nvar a=require("node:os").EOL;export{a};`],
      ['/b/chunks/plain.mjs', 'export const b=1;'],
    ]);
    const kept = keepRequireBannerWhereRead(files, BANNER);
    expect(kept.get('/b/index.mjs')).toBe('import{a}from"./chunks/c.mjs";export const handler=a;');
    expect(kept.get('/b/chunks/c.mjs')).toBe(files.get('/b/chunks/c.mjs'));
    expect(kept.get('/b/chunks/plain.mjs')).toBe('export const b=1;');
  });
});
