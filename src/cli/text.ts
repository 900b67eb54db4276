// The text forms of times, shared by every command that prints one for people (docs/output.md):
// JSON carries ISO 8601 UTC with milliseconds; text carries this one form.

/**
 * A time in the one text form: UTC, to the second, `2026-11-28 04:45:12`. Takes an ISO string or
 * epoch milliseconds; '-' for nothing or something that is not a time.
 * @example textTime('2026-11-28T04:45:12.300Z') // '2026-11-28 04:45:12'
 */
export function textTime(t: string | number | null | undefined): string {
  const ms = typeof t === 'number' ? t : typeof t === 'string' ? Date.parse(t) : Number.NaN;
  if (!Number.isFinite(ms)) return '-';
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
}
