// The sandbox's file codec: JSON with tagged bigints, {"$bigint":"…"}: an object, so no user
// string (a client order id, say) can ever be mistaken for one. Read back strictly: a tag's
// digits must be a decimal integer as encode() writes it, for the snapshot and the log alike.
/** JSON with tagged bigints. */
export function encode(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? { $bigint: x.toString() } : x));
}

/** A tagged bigint whose digits are not a plain decimal integer ("", " 12", "0x1F", "+5"). */
class BadBigint extends Error {
  constructor(readonly digits: string) {
    super(`a tagged bigint ${JSON.stringify(digits)} is not a decimal integer`);
  }
}

/** What BigInt() would also take, but encode() never writes: only these digits are read back. */
const DECIMAL = /^(0|-?[1-9][0-9]*)$/;

/**
 * Parses JSON with tagged bigints, strictly: a tag's digits must be a decimal integer as encode()
 * writes it (BigInt() alone would read "" as 0 and "0x1F" as 31). Throws BadBigint for those,
 * and JSON.parse's own error for text that is not JSON.
 */
function decode(text: string): unknown {
  return JSON.parse(text, (_k, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const o = v as Record<string, unknown>;
      const b = o['$bigint'];
      if (typeof b === 'string' && Object.keys(o).length === 1) {
        if (!DECIMAL.test(b)) throw new BadBigint(b);
        return BigInt(b);
      }
    }
    return v;
  });
}

/** Decodes one file's text (or one line): the value, or why it cannot be read (never from an error's text). */
export function decodeOrWhy(text: string): { ok: true; value: unknown } | { ok: false; why: string } {
  try {
    return { ok: true, value: decode(text) };
  } catch (e) {
    return { ok: false, why: e instanceof BadBigint ? e.message : 'not readable JSON' };
  }
}
