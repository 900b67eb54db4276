// The order journal: every order is appended (and fsynced) under PM_HOME/journal before it is
// sent, so a crashed script can be re-run with the same client id without a second order.
import { closeSync, existsSync, fstatSync, fsyncSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDir } from '../fsutil.js';

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
    const fd = openSync(this.file, 'a+', 0o600);
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
    if (!existsSync(this.file)) return out;
    for (const line of readFileSync(this.file, 'utf8').split('\n')) {
      if (!line) continue;
      try {
        const e = JSON.parse(line) as JournalEntry;
        if (e && typeof e.clientOrderId === 'string') out.set(e.clientOrderId, e);
      } catch {
        // a line torn by a crash mid-write
      }
    }
    return out;
  }

  /** The latest entry for a client id (a torn last line is skipped). */
  lookup(clientOrderId: string): JournalEntry | undefined {
    if (!existsSync(this.file)) return undefined;
    let found: JournalEntry | undefined;
    for (const line of readFileSync(this.file, 'utf8').split('\n')) {
      if (!line.includes(clientOrderId)) continue;
      try {
        const e = JSON.parse(line) as JournalEntry;
        if (e.clientOrderId === clientOrderId) found = e;
      } catch {
        // a line torn by a crash mid-write
      }
    }
    return found;
  }
}

