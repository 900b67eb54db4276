// The secp256k1 base point's precomputed table, sized for what a process signs. @noble/curves
// (the one viem uses) builds a window-8 table (4,224 points) on the first multiplication by the
// base point: ~40 ms and much garbage, which a one-order command spends deriving its address
// and signing once. A window-4 table (520 points) builds in a few ms; signing with it is ~3×
// slower per signature, so from the 16th signature of a process on, the full table is built
// once and bulk signing stays at the curve's ceiling. Results are identical either way.
import { secp256k1 } from '@noble/curves/secp256k1';

const FEW = 4;
const MANY = 8;
const SWITCH_AT = 16;
let window = 0;
let signatures = 0;

function setWindow(w: number): void {
  window = w;
  secp256k1.ProjectivePoint.BASE._setWindowSize(w);
}

/** Call before a process first uses the curve for a few operations (deriving an address, a signature). */
export function curveForFewSignatures(): void {
  if (window === 0) setWindow(FEW);
}

/** Counts one signature; the SWITCH_AT-th switches a small table to the full one (noble's default). */
export function countSignature(): void {
  signatures += 1;
  if (signatures >= SWITCH_AT && window === FEW) setWindow(MANY);
}

/** Back to a process's first state: noble's default table and no signatures counted (for tests that share a process). */
export function resetCurveWindow(): void {
  if (window !== 0) secp256k1.ProjectivePoint.BASE._setWindowSize(MANY);
  window = 0;
  signatures = 0;
}

/** The window this module set on the base point (0: untouched, noble's default of 8). */
export function curveWindow(): number {
  return window;
}
