// Durations with units, as every duration flag takes them: 500ms, 20s, 5m, 1h; a bare number
// is milliseconds.
import { UsageError } from './errors.js';

const UNIT: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/**
 * Parses a duration into milliseconds (a positive whole number of ms).
 * @example parseDuration('20s') // 20000
 */
export function parseDuration(raw: string, flag = 'duration'): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(raw.trim());
  const ms = m ? Math.round(Number(m[1]) * (UNIT[m[2] ?? 'ms'] ?? 1)) : NaN;
  if (!Number.isFinite(ms) || ms < 1) throw new UsageError(`${flag} must be a duration such as 500ms, 20s or 5m (a bare number is milliseconds), got "${raw}"`);
  return ms;
}
