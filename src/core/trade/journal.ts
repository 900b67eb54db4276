// The order journal: every order is appended (and fsynced) under PM_HOME/journal before it is
// sent, so a crashed script can be re-run with the same client id without a second order.
import { closeSync, existsSync, fstatSync, fsyncSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDir } from '../fsutil.js';
import { UsageError } from '../errors.js';

/** A journal that cannot be read (a directory in its place, a damaged line): never overwritten. Exit 2, nothing sent. */
export class JournalError extends UsageError {
  override name = 'JournalError';
}

/**
 * The journal's entries, parsed at the boundary. A line torn by a crash mid-write (a cut-off
 * JSON prefix) is skipped; anything else that is not an entry is an error naming the line.
 */
function readEntries(file: string): JournalEntry[] {
  let text: string;
  try {
    if (!existsSync(file)) return [];
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new JournalError(`cannot read the order journal ${file}${code ? ` (${code})` : ''}`, { cause: e, hint: code === 'EISDIR' ? `Something replaced the journal with a directory: move it away (mv ${file} ${file}.bak).` : `Check the file's permissions (chmod 600 ${file}).` });
  }
  const out: JournalEntry[] = [];
  text.split('\n').forEach((line, i) => {
    if (!line) return;
    let e: unknown;
    try {
      e = JSON.parse(line);
    } catch (err) {
      if (/end of JSON input|Unterminated string/.test((err as Error).message)) return; // torn by a crash
      e = undefined;
    }
    const o = e as Partial<JournalEntry> | null | undefined;
    if (typeof o !== 'object' || o === null || typeof o.clientOrderId !== 'string' || typeof o.state !== 'string') {
      throw new JournalError(`the order journal ${file} is damaged at line ${i + 1}`, { hint: `Fix or delete that line by hand (pm never rewrites the journal); it records which client ids were sent.` });
    }
    out.push(o as JournalEntry);
  });
  return out;
}

/** pending: about to be sent; placed; failed: refused or not placed; unknown: outcome not known; unsent: interrupted before sending. */
export type JournalState = 'pending' | 'placed' | 'failed' | 'unknown' | 'unsent';

export interface JournalEntry {
  ts: string;
  clientOrderId: string;
  state: JournalState;
  marketSlug?: string | undefined;
  request?: unknown;
  orderId?: string | undefined;
  error?: string | undefined;
}

export class Journal {
  readonly file: string;

  constructor(dir: string) {
    this.file = join(dir, 'orders.ndjson');
  }

  /** Appends one entry and fsyncs it. */
  record(entry: Omit<JournalEntry, 'ts'>): void {
    ensurePrivateDir(join(this.file, '..'));
    let line = `${JSON.stringify({ ts: new Date().toISOString(), ...entry })}\n`;
    let fd: number;
    try {
      fd = openSync(this.file, 'a+', 0o600);
    } catch (e) {
      readEntries(this.file); // names the problem (a directory in its place…)
      throw e;
    }
    try {
      // After a crash mid-write the file may end without a newline: start a fresh line.
      const size = fstatSync(fd).size;
      if (size > 0) {
        const last = Buffer.alloc(1);
        readSync(fd, last, 0, 1, size - 1);
        if (last[0] !== 0x0a) line = `\n${line}`;
      }
      writeSync(fd, line);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }

  /** The latest entry of every client id, from one read of the journal (a torn line is skipped). */
  latestAll(): Map<string, JournalEntry> {
    const out = new Map<string, JournalEntry>();
    for (const e of readEntries(this.file)) out.set(e.clientOrderId, e);
    return out;
  }

  /** The latest entry for a client id (a torn last line is skipped). */
  lookup(clientOrderId: string): JournalEntry | undefined {
    let found: JournalEntry | undefined;
    for (const e of readEntries(this.file)) if (e.clientOrderId === clientOrderId) found = e;
    return found;
  }
}

