// Money and amounts: bigint raw units (6 decimals for USDC and shares) from parse to print.
import { ValidationError } from './errors.js';

export const DECIMALS = 6;
export const ONE = 1_000_000n; // 1.000000 in raw units
export const PRICE_TICK = 1_000n; // 0.001 in micro-units
export const SIZE_STEP = 1_000n; // 0.001 shares in raw units

/**
 * Parses a non-negative decimal string into raw units, exactly (no floats).
 * Throws ValidationError naming `field` when the string is not a decimal or has more
 * than `decimals` fractional digits.
 * @example parseUnits('0.42', 6, 'price') === 420000n
 */
/** The digits after the point; zeros past the last place change nothing (0.4200000 is 0.42). */
export const fraction = (digits: string | undefined, decimals: number): string =>
  (digits ?? '').length > decimals ? (digits ?? '').replace(/0+$/, '') : (digits ?? '');

/** How a hint names the input: a flag (`--fund`, or `amount` as `--amount`), else nothing. */
export const flagOf = (field: string): string => (field.startsWith('--') ? `${field} ` : /^[a-z][a-z-]*$/.test(field) ? `--${field} ` : '');

export function parseUnits(input: string, decimals = DECIMALS, field = 'amount'): bigint {
  const s = input.trim();
  const m = /^(\d*)(?:\.(\d*))?$/.exec(s);
  if (!m || s === '' || s === '.' || (m[1] === '' && (m[2] ?? '') === '')) {
    throw new ValidationError(`${field} must be a decimal number, got "${input}"`, { hint: `for example ${flagOf(field)}0.5` });
  }
  const whole = m[1] === '' ? '0' : (m[1] ?? '0');
  const frac = fraction(m[2], decimals);
  if (frac.length > decimals) {
    throw new ValidationError(`${field} "${input}" has more than ${decimals} decimal places`, {
      hint: `Give ${decimals} decimals at most: the smallest step is 0.${'0'.repeat(decimals - 1)}1.`,
    });
  }
  return BigInt(whole) * 10n ** BigInt(decimals) + BigInt((frac + '0'.repeat(decimals)).slice(0, decimals) || '0');
}

/**
 * Formats raw units as a decimal string, trimming trailing zeros but keeping at least
 * `minFraction` fractional digits.
 * @example formatUnits(5500000n) === '5.5'; formatUnits(5500000n, 6, 2) === '5.50'
 */
export function formatUnits(raw: bigint, decimals = DECIMALS, minFraction = 0): string {
  const neg = raw < 0n;
  const abs = neg ? -raw : raw;
  const base = 10n ** BigInt(decimals);
  const whole = abs / base;
  let frac = (abs % base).toString().padStart(decimals, '0').replace(/0+$/, '');
  if (frac.length < minFraction) frac = frac.padEnd(minFraction, '0');
  return `${neg ? '-' : ''}${whole}${frac ? `.${frac}` : ''}`;
}

/**
 * A decimal price as pm prints one in text: three decimals at least, as the tables print prices
 * ("0.5" → "0.500"; a finer one whole: "0.4213"). Text that is no decimal is kept as it is.
 */
export function priceText(price: string): string {
  const m = /^(\d+)(?:\.(\d*))?$/.exec(price);
  return m ? `${m[1]}.${(m[2] ?? '').padEnd(3, '0')}` : price;
}

/** Parses a wire number-or-string amount (raw units) into a bigint; floats are truncated. */
export function rawFromWire(v: unknown): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return BigInt(Math.trunc(v));
  if (typeof v === 'string' && /^-?\d+$/.test(v.trim())) return BigInt(v.trim());
  if (typeof v === 'string' && /^-?\d+\.\d+$/.test(v.trim())) return BigInt(v.trim().split('.')[0] ?? '0');
  return 0n;
}

/** A wire price (number 0.42 or string "0.42") to micro-units, exactly via its decimal text. */
export function priceFromWire(v: unknown): bigint | null {
  if (v === null || v === undefined) return null;
  const s = typeof v === 'number' ? v.toFixed(6) : typeof v === 'string' ? v : '';
  try {
    return parseUnits(s.replace(/^(\d+\.\d{6})\d*$/, '$1'), 6, 'price');
  } catch {
    return null;
  }
}
