// Readers of the exchange's JSON: every answer is checked for its shape with these before a
// field is used. Each reader has one meaning.
export type Json = Record<string, unknown>;

/** A JSON object (not an array, not null). */
export function isObj(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A value as text: a string as sent, a number as decimal text, anything else ''. */
export function textOf(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '';
}

/** A field as text: a string as sent, a number as decimal text, anything else ''. */
export function textField(o: Json, k: string): string {
  return textOf(o[k]);
}

/** A value as text, or null when it is neither a string nor a number. */
export function textOrNull(v: unknown): string | null {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null;
}

/** A field only when it is a string (numbers are not taken), else undefined. */
export function stringField(o: Json, k: string): string | undefined {
  const v = o[k];
  return typeof v === 'string' ? v : undefined;
}
