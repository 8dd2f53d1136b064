import { describe, expect, it } from 'vitest';
import { compileCommonJsEagerly } from '../../../infra/constructs/eager-commonjs.mjs';

// esbuild's minified `require` helper as 0.28 writes it, in a shared chunk, and modules that use it.
const HELPER_CHUNK = 'var n=(a,b)=>()=>{try{return b||a((b={exports:{}}).exports,b),b.exports}catch(c){throw b=0,c}};export{n as b};';

const compile = (files: Record<string, string>) => {
  const { files: out, modules } = compileCommonJsEagerly(new Map(Object.entries(files)));
  return { out: Object.fromEntries(out), modules };
};

describe('compileCommonJsEagerly', () => {
  it('turns each CommonJS module of the bundle into a parenthesized function, through the helper imported under any name', () => {
    const { out, modules } = compile({
      '/b/chunks/chunk-H.mjs': HELPER_CHUNK,
      '/b/index.mjs': 'import{b as X}from"./chunks/chunk-H.mjs";var m=X((e,t)=>{t.exports={answer:42}});console.log(m().answer);',
    });
    expect(modules).toBe(1);
    expect(out['/b/index.mjs']).toBe('import{b as X}from"./chunks/chunk-H.mjs";var m=X((function(e,t){t.exports={answer:42}}));console.log(m().answer);');
    expect(out['/b/chunks/chunk-H.mjs']).toBe(HELPER_CHUNK);
  });

  it('finds the helper where it is defined too, and runs the module the same', async () => {
    const code = `${HELPER_CHUNK.replace('export{n as b};', '')}var m=n((e,t)=>{let inner=()=>this;t.exports={answer:41+1,inner}});export const answer=m().answer;`;
    const { out, modules } = compile({ '/b/index.mjs': code });
    // `this` in a nested arrow is the module function's own: left alone.
    expect(modules).toBe(0);
    const plain = code.replace(',inner}', '}').replace('let inner=()=>this;', '');
    const rewritten = compile({ '/b/index.mjs': plain });
    expect(rewritten.modules).toBe(1);
    const module = await import(`data:text/javascript,${encodeURIComponent(rewritten.out['/b/index.mjs']!)}`);
    expect(module.answer).toBe(42);
    expect(out['/b/index.mjs']).toBe(code);
  });

  it('leaves modules that read `arguments` or `this` of their own scope, and calls of anything but the helper', () => {
    const { modules } = compile({
      '/b/chunks/chunk-H.mjs': HELPER_CHUNK,
      '/b/index.mjs':
        'import{b as X}from"./chunks/chunk-H.mjs";var other=(f)=>f;' +
        'var a=X((e,t)=>{t.exports=arguments.length});var c=X((e,t)=>{t.exports=this});var d=other((e,t)=>{t.exports=1});' +
        'var f=X((e,t)=>{t.exports=function(){return this}});',
    });
    // Only `f`: the `this` in its nested function is that function's own.
    expect(modules).toBe(1);
  });
});
