// Order amounts, exactly as the exchange computes them (wire-facts §3.3–3.4): prices on the
// 0.001 tick in (0, 1], sizes on the 0.001-share grid, ceil collateral for BUY, floor for SELL.
import { ValidationError } from '../errors.js';
import { flagOf, formatUnits, ONE, parseUnits, PRICE_TICK, SIZE_STEP } from '../money.js';

import { inputExample, inputName } from './terms.js';
import type { InputWords, Side } from './terms.js';

/** The exchange reads amounts as JSON numbers: raw units above 2^53 - 1 would lose precision. */
export const MAX_RAW = BigInt(Number.MAX_SAFE_INTEGER);

function checkMax(raw: bigint, input: string, field: string, unit: string): bigint {
  if (raw > MAX_RAW)
    throw new ValidationError(
      `${field} ${input} is too large: the exchange takes at most ${formatUnits(MAX_RAW)} ${unit} (2^53 - 1 raw units)`,
    );
  return raw;
}

/**
 * The values on the 0.001 grid either side of `raw` (in units of 10^-decimals), above 0 and at most
 * `max` when given: "use 0.423 or 0.424", "use 10.123 or 10.124".
 */
function nearest(raw: bigint, decimals: number, max?: bigint): string[] {
  const step = 10n ** BigInt(decimals - 3);
  const lo = raw - (raw % step);
  return [lo, lo + step].filter((v) => v > 0n && (max === undefined || v <= max)).map((v) => formatUnits(v, decimals));
}

/**
 * Input with more decimals than the exchange's 6 (0.4235001): still a number, off the grid, its
 * exact value at its own precision (so the nearest valid values are named exactly); else undefined.
 */
function finer(input: string): { exact: bigint; decimals: number } | undefined {
  const m = /^\s*(\d*)\.(\d{7,})\s*$/.exec(input);
  return m ? { exact: BigInt(`${m[1] || '0'}${m[2] ?? ''}`), decimals: m[2]?.length ?? 7 } : undefined;
}

function offTick(input: string, options: string[], w: InputWords): ValidationError {
  return new ValidationError(`price ${input} is off the 0.001 tick: use ${options.join(' or ')}`, {
    hint: `Prices are on a 0.001 tick: ${options.map((o) => inputExample(w, 'price', o)).join(' or ')}.`,
  });
}

/** Parses a price (0.001 tick, 0 < p ≤ 1) into micro-units; off-tick input names the nearest valid values. */
export function parsePrice(input: string, w: InputWords = 'flags'): bigint {
  let raw: bigint;
  try {
    raw = parseUnits(input, 6, 'price');
  } catch {
    const f = finer(input);
    const one = f && 10n ** BigInt(f.decimals);
    if (f && one && f.exact > 0n && f.exact <= one) throw offTick(input, nearest(f.exact, f.decimals, one), w);
    throw new ValidationError(`price "${input}" is not a decimal between 0 and 1`, {
      hint: `for example ${inputExample(w, 'price', '0.42')}`,
    });
  }
  if (raw <= 0n || raw > ONE)
    throw new ValidationError(`price ${input} is out of range: it must be above 0 and at most 1`, {
      hint: 'Prices are probabilities, e.g. 0.42 for 42¢.',
    });
  if (raw % PRICE_TICK !== 0n) throw offTick(input, nearest(raw, 6, ONE), w);
  return raw;
}

/** A size as the user gives it: `--size 10` or `size: '10'`. */
const sizeExample = (field: string, w: InputWords, v: string): string => (w === 'keys' ? `${field}: '${v}'` : `${flagOf(field)}${v}`);

function offGrid(input: string, field: string, options: string[], w: InputWords): ValidationError {
  return new ValidationError(`${field} ${input} is off the 0.001-share grid: use ${options.join(' or ')}`, {
    hint: `Sizes go in steps of 0.001 share: ${options.map((o) => sizeExample(field, w, o)).join(' or ')}.`,
  });
}

/** Parses a size in shares (0.001-share grid, > 0) into raw units; off-grid input names the nearest valid values. */
export function parseSize(input: string, field = 'size', w: InputWords = 'flags'): bigint {
  const example = (v: string): string => sizeExample(field, w, v);
  let raw: bigint;
  try {
    raw = parseUnits(input, 6, field);
  } catch {
    const f = finer(input);
    if (f && f.exact > 0n) throw offGrid(input, field, nearest(f.exact, f.decimals), w);
    throw new ValidationError(`${field} "${input}" is not a positive decimal number of shares`, { hint: `for example ${example('10')}` });
  }
  if (raw <= 0n)
    throw new ValidationError(`${field} must be greater than 0`, {
      hint: `Sizes go in steps of 0.001 share, from 0.001: for example ${example('10')}.`,
    });
  if (raw % SIZE_STEP !== 0n) throw offGrid(input, field, nearest(raw, 6), w);
  return checkMax(raw, input, field, 'shares');
}

/** Parses a FOK amount (USDC for BUY, shares for SELL; up to 6 decimals, > 0). */
export function parseAmount(input: string, w: InputWords = 'flags'): bigint {
  let raw: bigint;
  try {
    raw = parseUnits(input, 6, 'amount');
  } catch (e) {
    throw new ValidationError(`amount "${input}" is not a positive decimal with at most 6 decimals`, {
      hint: `for example ${inputExample(w, 'amount', '25')} (USDC to spend on BUY, shares on SELL)`,
      cause: e,
    });
  }
  if (raw <= 0n) throw new ValidationError('amount must be greater than 0');
  return checkMax(raw, input, 'amount', 'units');
}

/** A FOK SELL amount is shares: on the 0.001-share grid like a size (the exchange refuses others). */
export function checkFokSellAmount(raw: bigint, input: string, w: InputWords = 'flags'): bigint {
  const amount = inputName(w, 'amount');
  if (raw % SIZE_STEP !== 0n) {
    const lo = raw - (raw % SIZE_STEP);
    const options = [lo, lo + SIZE_STEP].filter((v) => v > 0n).map((v) => formatUnits(v));
    throw new ValidationError(`amount ${input} is off the 0.001-share grid (a FOK SELL amount is shares): use ${options.join(' or ')}`, {
      hint: `FOK SELL sells ${amount} shares, in steps of 0.001; FOK BUY spends ${amount} USDC (6 decimals).`,
    });
  }
  return raw;
}

/** GTC/FAK maker and taker amounts for `size` shares at `price`. */
export function limitAmounts(side: Side, price: bigint, size: bigint): { makerAmount: bigint; takerAmount: bigint } {
  const num = size * price;
  const collateral = side === 'BUY' ? (num + ONE - 1n) / ONE : num / ONE;
  return side === 'BUY' ? { makerAmount: collateral, takerAmount: size } : { makerAmount: size, takerAmount: collateral };
}

/** FOK amounts: makerAmount is the USDC to spend (BUY) or shares to sell (SELL); takerAmount is 1. */
export function fokAmounts(amount: bigint): { makerAmount: bigint; takerAmount: bigint } {
  return { makerAmount: amount, takerAmount: 1n };
}
