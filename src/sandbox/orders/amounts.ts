// Exact raw-unit arithmetic for the sandbox's trading side (no floats anywhere near money).
// The sandbox keeps its own copy instead of importing src/core/money.ts (independence rule).

export const ONE = 1_000_000n; // 1.000000 in raw units; also price 1.0 in micro-units
export const PRICE_TICK = 1_000n; // 0.001
export const SIZE_STEP = 1_000n; // 0.001 shares
const BPS = 10_000n;

/** ceil(a / b) for non-negative bigints. */
export function ceilDiv(a: bigint, b: bigint): bigint {
  return a === 0n ? 0n : (a + b - 1n) / b;
}

/** USDC reserved by a resting BUY of `size` shares at `price`: ceil(size·price / 1e6). */
export function buyLock(size: bigint, price: bigint): bigint {
  return ceilDiv(size * price, ONE);
}

/** The taker fee on a USDC notional: floor(notional · bps / 10000), so never above the rate. */
export function takerFee(notional: bigint, feeRateBps: number): bigint {
  return (notional * BigInt(feeRateBps)) / BPS;
}

/** Raw units → decimal text with trailing zeros trimmed: 420000n → "0.42", 5000000n → "5". */
export function formatRaw(raw: bigint): string {
  const neg = raw < 0n;
  const abs = neg ? -raw : raw;
  const whole = abs / ONE;
  const frac = (abs % ONE).toString().padStart(6, '0').replace(/0+$/, '');
  return `${neg ? '-' : ''}${whole}${frac ? `.${frac}` : ''}`;
}

/** A price in micro-units as the JSON number clients send (0.42); exact for 6 decimals. */
export function priceNumber(price: bigint): number {
  return Number(formatRaw(price));
}

/**
 * Parses a wire decimal (number 0.42 or string "0.42") into micro-units exactly; null when it
 * is not a plain non-negative decimal with at most 6 fractional digits.
 */
export function parseDecimal6(v: unknown): bigint | null {
  let s: string;
  if (typeof v === 'number') {
    if (!Number.isFinite(v) || v < 0) return null;
    s = String(v); // shortest round-trip text: 0.42 → "0.42"; tiny values give "1e-7" and fail below
  } else if (typeof v === 'string') {
    s = v.trim();
  } else {
    return null;
  }
  const m = /^(\d+)(?:\.(\d{1,6}))?$/.exec(s) ?? /^()\.(\d{1,6})$/.exec(s);
  if (!m) return null;
  const whole = m[1] === '' || m[1] === undefined ? '0' : m[1];
  const frac = (m[2] ?? '').padEnd(6, '0');
  return BigInt(whole) * ONE + BigInt(frac);
}

/** Parses a wire integer (JSON number within 2^53, or a decimal string) into a bigint; null otherwise. */
export function parseWireInt(v: unknown): bigint | null {
  if (typeof v === 'number') return Number.isSafeInteger(v) && v >= 0 ? BigInt(v) : null;
  if (typeof v === 'string' && /^\d{1,78}$/.test(v.trim())) return BigInt(v.trim());
  if (typeof v === 'bigint') return v >= 0n ? v : null;
  return null;
}
