// The only bigint-aware JSON serialiser (kept tiny: main.ts loads it on every start).

/** JSON with bigints as decimal strings. */
export function toJson(value: unknown, pretty = false): string {
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), pretty ? 2 : undefined);
}
