// Durations in one place: a bare number is milliseconds; `500ms`, `20s`, `5m`, `1h` are accepted.
// Every duration is bounded (Node turns a timer of 2^31 ms or more into 1 ms), the rest refused.
import { UsageError } from './errors.js';

/** The longest request timeout pm accepts: one hour. */
export const MAX_TIMEOUT_MS = 3_600_000;

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * Parses a duration into whole milliseconds, within [min, max].
 * @example parseDuration('20s', '--timeout') // 20000
 */
export function parseDuration(raw: string | number, name = 'duration', bounds: { min?: number; max?: number } = {}): number {
  const min = bounds.min ?? 1;
  const max = bounds.max ?? MAX_TIMEOUT_MS;
  const text = String(raw).trim();
  const m = /^(\d{1,16}(?:\.\d{1,3})?)(ms|s|m|h)?$/.exec(text);
  const ms = m ? Math.round(Number(m[1]) * (UNIT_MS[m[2] ?? 'ms'] ?? 1)) : NaN;
  // A flag's example is the flag with a value (--for 12h); a setting's is the value alone.
  const eg = (v: string): string => (name.startsWith('--') ? `${name} ${v}` : v);
  if (!m || !Number.isFinite(ms) || (m[2] === undefined && m[1]?.includes('.'))) {
    throw new UsageError(`${name} must be a duration such as 30000 (ms), 500ms, 20s or 5m, got "${text}"`, {
      hint: `A number with a unit (ms, s, m or h), e.g. ${eg(fmt(Math.min(Math.max(30_000, min), max)))}.`,
    });
  }
  if (ms < min || ms > max)
    throw new UsageError(`${name} must be between ${fmt(min)} and ${fmt(max)}, got "${text}"`, {
      hint: ms > max ? `The longest is ${fmt(max)}: ${eg(fmt(max))}.` : `The shortest is ${fmt(min)}: ${eg(fmt(min))}.`,
    });
  return ms;
}

function fmt(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}
