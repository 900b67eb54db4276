// The small journals of money under PM_HOME/journal (withdrawals, redemptions): one NDJSON file,
// appended 0600, parsed whole and field by field, a damaged line being an error that names the
// file and line and never read past.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { UsageError } from './errors.js';
import { ensurePrivateDir } from './fsutil.js';

/** Typed reads of one journal line's fields; each throws the line's "damaged" error. */
export interface LineFields {
  raw: Record<string, unknown>;
  str(k: string): string;
  strOrNull(k: string): string | null;
  /** A profile id, or null when absent. */
  idOrNull(k: string): number | null;
  bad(why: string): UsageError;
}

function fieldsOf(line: string, bad: (why: string) => UsageError): LineFields {
  let o: unknown;
  try {
    o = JSON.parse(line);
  } catch {
    throw bad('not JSON');
  }
  if (typeof o !== 'object' || o === null || Array.isArray(o)) throw bad('not an object');
  const raw = o as Record<string, unknown>;
  const str = (k: string): string => {
    const v = raw[k];
    if (typeof v !== 'string') throw bad(`${k} must be a string`);
    return v;
  };
  return {
    raw,
    str,
    strOrNull: (k) => (raw[k] === null || raw[k] === undefined ? null : str(k)),
    idOrNull: (k) => {
      const v = raw[k];
      if (v === null || v === undefined) return null;
      if (typeof v === 'number' && Number.isSafeInteger(v)) return v;
      throw bad(`${k} must be a profile id`);
    },
    bad,
  };
}

/**
 * One journal file: `name` under PM_HOME/journal, each line parsed by `parse`.
 * @example new NdjsonJournal(home, 'withdrawals', 'withdrawal', parseWithdrawal).entries()
 */
export class NdjsonJournal<T extends { ts: string }> {
  readonly file: string;
  constructor(
    home: string,
    name: string,
    private readonly what: string,
    private readonly parse: (f: LineFields) => T,
  ) {
    this.file = join(home, 'journal', `${name}.ndjson`);
  }

  /** Every entry, oldest first (the file is parsed whole: a damaged line is an error). */
  entries(): T[] {
    if (!existsSync(this.file)) return [];
    const out: T[] = [];
    readFileSync(this.file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (line.trim() === '') return;
        const bad = (why: string): UsageError =>
          new UsageError(`the ${this.what} journal ${this.file} is damaged at line ${i + 1}: ${why}`, {
            hint: `Move it aside (mv ${this.file} ${this.file}.bak): it only records what pm sent.`,
          });
        out.push(this.parse(fieldsOf(line, bad)));
      });
    return out;
  }

  /** Appends one entry (0600; fsync not needed: a lost line only loses a guard, never money). */
  record(e: Omit<T, 'ts'>): void {
    ensurePrivateDir(dirname(this.file));
    appendFileSync(this.file, `${JSON.stringify({ ts: new Date().toISOString(), ...e })}\n`, { mode: 0o600 });
  }
}
