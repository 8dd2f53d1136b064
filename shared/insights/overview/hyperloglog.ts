import { createHash } from 'node:crypto';

/**
 * HyperLogLog (Flajolet, Fusy, Gandouet, Meunier 2007): the distinct sites of a day in 4,096 one-byte registers,
 * whatever their number, and the union of days by taking each register's maximum. Each site's 64-bit hash (the
 * first 8 bytes of its SHA-256) picks a register with its top 12 bits and offers it the position of the first 1 in
 * the other 52. The estimate's standard error is 1.04 / √4096 ≈ 1.6% (docs/api.md); small counts use linear counting,
 * which is exact in practice below a few hundred sites. No npm package fitted: the maintained ones bring lodash,
 * decorators or native hashing for what is these few lines.
 */
export const PRECISION = 12;
export const REGISTERS = 1 << PRECISION;
/** The sketch's relative standard error. */
export const STANDARD_ERROR = 1.04 / Math.sqrt(REGISTERS);

const REST_BITS = 64 - PRECISION;
const HIGH_REST_BITS = 32 - PRECISION;
const ALPHA = 0.7213 / (1 + 1.079 / REGISTERS);

export const emptySketch = (): Uint8Array => new Uint8Array(REGISTERS);

/** A site's register and the rank it offers it (1 + leading zeros of the hash's remaining 52 bits). */
function placeOf(site: string): { register: number; rank: number } {
  const digest = createHash('sha256').update(site).digest();
  const high = digest.readUInt32BE(0);
  const low = digest.readUInt32BE(4);
  const register = high >>> HIGH_REST_BITS;
  const restHigh = high & ((1 << HIGH_REST_BITS) - 1);
  const zeros = restHigh !== 0 ? Math.clz32(restHigh) - PRECISION : low !== 0 ? HIGH_REST_BITS + Math.clz32(low) : REST_BITS;
  return { register, rank: zeros + 1 };
}

/** Adds sites to a sketch in place; true when a register changed (a sketch that did not change need not be written). */
export function addSites(sketch: Uint8Array, sites: Iterable<string>): boolean {
  let changed = false;
  for (const site of sites) {
    const { register, rank } = placeOf(site);
    if (rank > sketch[register]!) {
      sketch[register] = rank;
      changed = true;
    }
  }
  return changed;
}

/** The union of sketches: each register's maximum. */
export function mergeSketches(sketches: Uint8Array[]): Uint8Array {
  const union = emptySketch();
  for (const sketch of sketches) for (let i = 0; i < REGISTERS; i++) if (sketch[i]! > union[i]!) union[i] = sketch[i]!;
  return union;
}

/** The estimated number of distinct sites the sketch has seen. */
export function estimate(sketch: Uint8Array): number {
  let sum = 0;
  let empty = 0;
  for (let i = 0; i < REGISTERS; i++) {
    sum += 2 ** -sketch[i]!;
    if (sketch[i] === 0) empty += 1;
  }
  const raw = (ALPHA * REGISTERS * REGISTERS) / sum;
  // Linear counting while registers are still empty: far more exact for small counts.
  if (raw <= 2.5 * REGISTERS && empty > 0) return Math.round(REGISTERS * Math.log(REGISTERS / empty));
  return Math.round(raw);
}
