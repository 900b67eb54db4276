// The order journal: every order is appended (and fsynced) under PM_HOME/journal before it is
// sent, so a crashed script can be re-run with the same client id without a second order.
//
// It does not grow without limit and is never read whole for a lookup: the active file
// (orders.ndjson) is rotated once it passes `maxBytes` into a numbered segment
// (orders.<n>.ndjson) with an index beside it (orders.<n>.idx.json: the latest state of each
// client id, and the segment's first and last times); the newest `keep` segments are kept. A
// lookup reads the active file backwards from its end and stops at the first match, then the
// segment indexes, newest first. `pm order journal` shows the entries themselves.
import {
  closeSync,
  existsSync,
  fstatSync,
  fsyncSync,
  linkSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { ensurePrivateDir, writePrivateFileAtomic } from '../fsutil.js';
import { jsonPrefix } from '../json-prefix.js';

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
  /**
   * The exchange the order was sent to, one spelling per exchange (journal-account.ts's
   * exchangeId). With the request's ownerId and onBehalfOf it names the account: the journal is
   * the home's, shared by every account and exchange, so another account's entries never count.
   */
  exchange?: string | undefined;
}

export interface JournalOptions {
  /** Rotate the active file once it is larger than this (default 4 MiB). */
  maxBytes?: number;
  /** Rotated segments kept (default 20; older ones are deleted with their index). */
  keep?: number;
}

interface SegmentIndex {
  first: string;
  last: string;
  latest: Record<string, JournalEntry>;
}

const SEGMENT = /^orders\.(\d+)\.ndjson$/;
const CHUNK = 64 * 1024;
/** record() re-reads at most this much of the active file before it notes what it checked. */
const NOTE_AFTER = 64 * 1024;

/** A journal that cannot be read (a directory in its place, a damaged line): never overwritten. Exit 2, nothing sent. */
export class JournalError extends UsageError {
  override name = 'JournalError';
}

/** How pm starts every line it writes ({ ts, ...entry }): a torn line is a prefix of one. */
const ENTRY_START = '{"ts":"';

/**
 * The one reader of a journal line, used by every command that reads the journal or appends to
 * it: an entry; `skip` for a blank line or one torn by a crash mid-write; `damaged` for anything
 * else, which no command reads past or appends after.
 *
 * Torn is decided from the bytes, never from JSON.parse's error text (its wording changes between
 * Node versions): the line is the start of an entry (`{"ts":"…`) that every character so far fits
 * and that ends before the entry closes. Such a line was never fsynced whole, so its order was
 * never sent. It is the last line, without its newline, until record() starts the next entry on
 * a fresh line after it; so it may also stand before later entries. A line that ends complete but
 * is not an entry, or holds a character JSON cannot have there, is damage.
 */
function parseLine(line: string): JournalEntry | 'skip' | 'damaged' {
  if (line === '') return 'skip';
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    const prefix = line.startsWith(ENTRY_START) || ENTRY_START.startsWith(line);
    return prefix && jsonPrefix(line) === 'cut' ? 'skip' : 'damaged';
  }
  const e = v as Partial<JournalEntry> | null;
  return typeof e === 'object' &&
    e !== null &&
    !Array.isArray(e) &&
    typeof e.clientOrderId === 'string' &&
    typeof e.state === 'string' &&
    (e.exchange === undefined || typeof e.exchange === 'string')
    ? (e as JournalEntry)
    : 'damaged';
}

/** The error for a damaged journal file: which file, which line, and how to get going again. */
function damagedAt(file: string, line: number | undefined): JournalError {
  return new JournalError(`the order journal ${file} is damaged${line === undefined ? '' : ` at line ${line}`}`, {
    hint: `Move it aside and run the command again: mv ${file} ${file}.damaged (pm starts a new journal; it never rewrites one, and the exchange still knows every client id it placed: pm order status --client-id ID).`,
  });
}

const brief = (e: JournalEntry): JournalEntry => {
  const { request: _request, ...rest } = e;
  return rest;
};

export class Journal {
  readonly file: string;
  readonly dir: string;
  private readonly maxBytes: number;
  private readonly keep: number;
  /** Bytes read by lookups and by the check before an append (for tests: neither reads the journal whole). */
  bytesRead = 0;
  /** Lines and segment indexes a lookup parsed (for tests: a lookup of a new client id parses neither whole). */
  parsed = { lines: 0, indexes: 0 };

  constructor(dir: string, o: JournalOptions = {}) {
    this.dir = dir;
    this.file = join(dir, 'orders.ndjson');
    this.maxBytes = o.maxBytes ?? 4 * 1024 * 1024;
    this.keep = o.keep ?? 20;
  }

  /** Appends one entry and fsyncs it; rotates the file when it has grown past maxBytes. */
  record(entry: Omit<JournalEntry, 'ts'>): void {
    ensurePrivateDir(this.dir);
    let line = `${JSON.stringify({ ts: new Date().toISOString(), ...entry })}\n`;
    let fd: number;
    try {
      fd = openSync(this.file, 'a+', 0o600);
    } catch (e) {
      this.readAll(this.file); // names the problem (a directory in its place…)
      throw e;
    }
    let size = 0;
    try {
      size = fstatSync(fd).size;
      this.checkBeforeAppend(fd, size);
      // After a crash mid-write the file may end without a newline: start a fresh line.
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
    // Lookups also read the segment indexes, so rotation may happen after any entry.
    if (size + line.length > this.maxBytes) this.rotate();
  }

  /** Where record() notes how much of the active file it has read and found sound: "<inode> <birth ms> <bytes>". */
  private get checkedFile(): string {
    return join(this.dir, 'orders.checked');
  }

  /**
   * A damaged journal is never appended to: the part of the active file not yet checked (all of
   * it the first time, then what was appended since the note in `checkedFile`) is read with the
   * one line parser before each append, so an order is refused here, before it is sent, by the
   * same verdict `pm order journal` and `pm doctor` give. (Damage that keeps the file and its
   * length, written in place before the note, is left to those readers: finding it here would
   * mean reading the whole journal before every order.)
   */
  private checkBeforeAppend(fd: number, size: number): void {
    const { self, from } = this.checked(fd, size);
    if (from >= size) return;
    const buf = Buffer.alloc(size - from);
    readSync(fd, buf, 0, buf.length, from);
    this.bytesRead += buf.length;
    const end = buf.lastIndexOf(0x0a) + 1;
    for (const line of buf.toString('utf8').split('\n')) {
      // The first damaged line of the whole file, as the other readers name it.
      if (parseLine(line) === 'damaged') throw this.firstDamage(this.file);
    }
    // Only whole lines are noted, and only once enough was read to be worth a write.
    if (end >= NOTE_AFTER) {
      try {
        writePrivateFileAtomic(this.checkedFile, `${self} ${from + end}`);
      } catch {
        // the note only saves reading: without it the file is checked again
      }
    }
  }

  /** How many leading bytes of the active file (open as `fd`, `size` long) the note in `checkedFile` says are sound. */
  private checked(fd: number, size: number): { self: string; from: number } {
    const st = fstatSync(fd);
    const self = `${st.ino} ${Math.round(st.birthtimeMs)}`;
    try {
      const m = /^(\d+ \d+) (\d+)$/.exec(readFileSync(this.checkedFile, 'utf8'));
      if (m?.[1] === self && Number(m[2]) <= size) return { self, from: Number(m[2]) };
    } catch {
      // no note yet: nothing checked
    }
    return { self, from: 0 };
  }

  /** The error naming the first damaged line of `file` (read whole: only on the way to failing). */
  private firstDamage(file: string): JournalError {
    try {
      this.readAll(file);
    } catch (e) {
      if (e instanceof JournalError) return e;
    }
    return damagedAt(file, undefined);
  }

  /** Segment numbers, newest first. */
  private segments(): number[] {
    if (!existsSync(this.dir)) return [];
    return readdirSync(this.dir)
      .map((n) => SEGMENT.exec(n)?.[1])
      .filter((n): n is string => n !== undefined)
      .map(Number)
      .sort((a, b) => b - a);
  }

  private segFile(n: number): string {
    return join(this.dir, `orders.${n}.ndjson`);
  }

  private idxFile(n: number): string {
    return join(this.dir, `orders.${n}.idx.json`);
  }

  /** Moves the active file to the next segment (link, then unlink: never over another) and indexes it. */
  private rotate(): void {
    let n = (this.segments()[0] ?? 0) + 1;
    for (; ; n++) {
      try {
        linkSync(this.file, this.segFile(n));
        break;
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') return; // another process rotated it first
        if (code !== 'EEXIST') return; // rotation is housekeeping: never fail an order for it
      }
    }
    try {
      unlinkSync(this.file);
    } catch {
      // already gone
    }
    const entries = this.readAll(this.segFile(n));
    const latest: Record<string, JournalEntry> = {};
    for (const e of entries) latest[e.clientOrderId] = brief(e);
    const index: SegmentIndex = { first: entries[0]?.ts ?? '', last: entries[entries.length - 1]?.ts ?? '', latest };
    try {
      writePrivateFileAtomic(this.idxFile(n), JSON.stringify(index));
    } catch {
      // without an index the segment is still read when needed
    }
    for (const old of this.segments().slice(this.keep)) {
      for (const f of [this.segFile(old), this.idxFile(old)]) {
        try {
          unlinkSync(f);
        } catch {
          // already gone
        }
      }
    }
  }

  /** Every entry of one file, parsed at the boundary: a torn line is skipped, a damaged one is an error naming it. */
  private readAll(file: string): JournalEntry[] {
    let text: string;
    try {
      if (!existsSync(file)) return [];
      text = readFileSync(file, 'utf8');
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new JournalError(`cannot read the order journal ${file}${code ? ` (${code})` : ''}`, {
        cause: e,
        hint:
          code === 'EISDIR'
            ? `Something replaced the journal with a directory: move it away (mv ${file} ${file}.bak).`
            : `Check the file's permissions (chmod 600 ${file}).`,
      });
    }
    const out: JournalEntry[] = [];
    text.split('\n').forEach((line, i) => {
      const e = parseLine(line);
      if (e === 'damaged') throw damagedAt(file, i + 1);
      if (e !== 'skip') out.push(e);
    });
    return out;
  }

  /**
   * A segment's index; with `key` (`"<client id>":`), undefined when a whole index (as rotate()
   * writes it, ending `}}`) does not hold that key, without parsing it (one index of a 4 MiB
   * segment is ~1 MB of JSON, and a lookup of a new client id asks every kept segment).
   */
  private index(n: number): SegmentIndex;
  private index(n: number, key: string): SegmentIndex | undefined;
  private index(n: number, key?: string): SegmentIndex | undefined {
    try {
      const text = readFileSync(this.idxFile(n), 'utf8');
      if (key !== undefined && text.endsWith('}}') && !text.includes(key)) return undefined;
      this.parsed.indexes++;
      const v = JSON.parse(text) as SegmentIndex;
      if (v && typeof v.latest === 'object' && v.latest !== null) return v;
    } catch {
      // missing or damaged: rebuilt from the segment below
    }
    const entries = this.readAll(this.segFile(n));
    const latest: Record<string, JournalEntry> = {};
    for (const e of entries) latest[e.clientOrderId] = brief(e);
    return { first: entries[0]?.ts ?? '', last: entries[entries.length - 1]?.ts ?? '', latest };
  }

  /** The last entry of `file` for which `match` holds, reading backwards from the end in chunks. */
  private lastMatching(file: string, needle: string, match: (e: JournalEntry) => boolean): JournalEntry | undefined {
    if (!existsSync(file)) return undefined;
    let fd: number;
    try {
      fd = openSync(file, 'r');
      if (!fstatSync(fd).isFile()) {
        closeSync(fd);
        throw Object.assign(new Error('not a file'), { code: 'EISDIR' });
      }
    } catch {
      return void this.readAll(file); // names the problem (a directory in its place…)
    }
    try {
      let pos = fstatSync(fd).size;
      // The part of the active file that record() checked and found sound before it appended
      // (the note in checkedFile): a line there that does not name the client id is passed over
      // unparsed, so a lookup of a new client id does not parse the whole file (~45 ms a lookup
      // at 5,000 entries). Lines after it are read with the one line parser, as before.
      const sound = file === this.file ? this.checked(fd, pos).from : 0;
      let carry = '';
      while (pos > 0) {
        const len = Math.min(CHUNK, pos);
        pos -= len;
        const buf = Buffer.alloc(len);
        readSync(fd, buf, 0, len, pos);
        this.bytesRead += len;
        const inSound = pos + len + Buffer.byteLength(carry) <= sound;
        const text = buf.toString('utf8') + carry;
        const lines = text.split('\n');
        // The first piece may be the end of a line that starts in the previous chunk.
        carry = pos > 0 ? (lines.shift() ?? '') : '';
        for (let i = lines.length - 1; i >= 0; i--) {
          const line = lines[i] ?? '';
          if (inSound && !line.includes(needle)) continue;
          this.parsed.lines++;
          const e = parseLine(line);
          if (e === 'damaged') throw this.firstDamage(file);
          if (e !== 'skip' && line.includes(needle) && match(e)) return e;
        }
      }
      return undefined;
    } finally {
      closeSync(fd);
    }
  }

  /** The latest entry of every client id: the active file and the segment indexes (a torn line is skipped). */
  latestAll(): Map<string, JournalEntry> {
    const out = new Map<string, JournalEntry>();
    for (const n of this.segments().reverse()) for (const [k, v] of Object.entries(this.index(n).latest)) out.set(k, v);
    for (const e of this.readAll(this.file)) out.set(e.clientOrderId, e);
    return out;
  }

  /** The latest entry for a client id: the active file from its end, then the segment indexes, newest first. */
  lookup(clientOrderId: string): JournalEntry | undefined {
    const hit = this.lastMatching(this.file, JSON.stringify(clientOrderId), (e) => e.clientOrderId === clientOrderId);
    if (hit) return hit;
    const key = `${JSON.stringify(clientOrderId)}:`;
    for (const n of this.segments()) {
      const e = this.index(n, key)?.latest[clientOrderId];
      if (e) return e;
    }
    return undefined;
  }

  /**
   * The client ids of the active file whose latest entry says "unknown" and was written at `since`
   * (ms) or later, newest first, each with the request its run sent (the pending entry) and its
   * exchange. Reads nothing but the active file, and parses only the lines of those ids.
   */
  unknownSince(since: number): { clientOrderId: string; at: number; request: unknown; exchange: string | undefined }[] {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch {
      return []; // no journal yet (a journal that cannot be read is said by the lookup that follows)
    }
    const UNKNOWN = '"state":"unknown"';
    if (!text.includes(UNKNOWN)) return [];
    const lines = text.split('\n');
    const ids = new Set<string>();
    for (const line of lines) {
      if (!line.includes(UNKNOWN)) continue;
      const e = parseLine(line);
      if (e !== 'skip' && e !== 'damaged' && e.state === 'unknown' && Date.parse(e.ts) >= since) ids.add(e.clientOrderId);
    }
    if (ids.size === 0) return [];
    const needles = [...ids].map((id) => JSON.stringify(id));
    const latest = new Map<string, JournalEntry>();
    const sent = new Map<string, unknown>();
    for (const line of lines) {
      if (!needles.some((n) => line.includes(n))) continue;
      const e = parseLine(line);
      if (e === 'skip' || e === 'damaged' || !ids.has(e.clientOrderId)) continue;
      latest.set(e.clientOrderId, e);
      if (e.state === 'pending' && e.request !== undefined) sent.set(e.clientOrderId, e.request);
    }
    return [...latest.values()]
      .filter((e) => e.state === 'unknown' && sent.has(e.clientOrderId))
      .map((e) => ({ clientOrderId: e.clientOrderId, at: Date.parse(e.ts), request: sent.get(e.clientOrderId), exchange: e.exchange }))
      .sort((a, b) => b.at - a.at);
  }

  /**
   * Entries, oldest first: those since `since` (ms), or of one client id (what was sent — the
   * pending entry holds the request — and what came back), at most the last `limit`.
   */
  entries(q: { since?: number | undefined; clientId?: string | undefined; limit?: number | undefined } = {}): JournalEntry[] {
    const out: JournalEntry[] = [];
    const files = [this.file, ...this.segments().map((n) => this.segFile(n))];
    const segs = [undefined, ...this.segments()];
    for (let i = 0; i < files.length; i++) {
      const n = segs[i];
      if (n !== undefined) {
        const idx = this.index(n);
        if (q.clientId !== undefined && !idx.latest[q.clientId]) continue;
        if (q.since !== undefined && idx.last && Date.parse(idx.last) < q.since) break;
      }
      const es = this.readAll(files[i] ?? '').filter(
        (e) => (q.clientId === undefined || e.clientOrderId === q.clientId) && (q.since === undefined || Date.parse(e.ts) >= q.since),
      );
      out.unshift(...es);
      if (q.since === undefined && q.clientId === undefined && q.limit !== undefined && out.length >= q.limit) break;
    }
    return q.limit !== undefined ? out.slice(-q.limit) : out;
  }
}

/**
 * Of `words` given where an order id goes, those this journal holds as client ids of orders sent
 * to `exchange` (exchangeId's spelling; an entry that does not name its exchange counts): what a
 * "no such order" can offer to name with --client-id. At most 20 words are looked up; a journal
 * that cannot be read gives none (this only words a hint).
 */
export function sentClientIds(journal: Journal, exchange: string, words: readonly string[]): string[] {
  return words.slice(0, 20).filter((w) => {
    try {
      const e = journal.lookup(w);
      return e !== undefined && (e.exchange === undefined || e.exchange === exchange);
    } catch {
      return false;
    }
  });
}
