// State on disk = a snapshot plus an append-only event log (dir 0700, files 0600):
//   events.ndjson      one logged event per line, appended and fsynced before a write is
//                      acknowledged (so an acknowledged order survives kill -9);
//   events.<S>.ndjson  an older segment, rotated out when a compaction started at seq S;
//   state.json         a snapshot of the state up to some seq, written in the background
//                      (temp file, fsync, rename) every COMPACT_EVERY events and at close;
//   server.key         the server key (keyfile.ts).
// Loading = snapshot + replay of the events after its seq (snapshot.ts, logfile.ts). Neither
// file holds a private key, a token secret or the server key (secrets.ts). Balances are not
// stored either: the accounts are the ledger's projection.
import {
  chmodSync,
  closeSync,
  existsSync,
  fdatasyncSync,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { open as openAsync, rename as renameAsync, rm as rmAsync } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { encode } from './codec.js';
import { newServerKey, readKeyFile, writeKeyFile } from './keyfile.js';
import { LOG, SEGMENT, logFiles, readLogFile } from './logfile.js';
import { apply } from './reducer.js';
import { openLedgers, projectAccounts } from './ledger.js';
import { rehydrate } from './secrets.js';
import { freeze, readSnapshot, snapshotPieces, stateFile } from './snapshot.js';
import { corrupt, fsyncDir } from './stateerror.js';
import type { SandboxState } from './types.js';
import type { LogEntry } from './events.js';

const TEMP = /^\.(state|snapshot)\..*\.tmp$/;
const RUN_TEMP = /^\.[0-9a-f]{12}\.tmp$/;

/** What opening a data dir found: the state at `seq` and the events replayed onto it. */
export interface Loaded {
  state: SandboxState | null;
  seq: number;
  replayed: LogEntry[];
  /** A torn last line was found (kill -9 mid append) and cut off. */
  tornTail: boolean;
  /** What the caller should tell the person starting the sandbox (e.g. the torn line dropped). */
  warnings: string[];
  /** The data dir's server key (server.key, created with the dir). */
  serverKey: string;
}

/** The sandbox's data dir: opens (load + replay), appends events, compacts into snapshots. */
export class StateStore {
  private fd: number | null = null;
  private compaction: Promise<void> | null = null;
  private sinceSnapshot = 0;
  /** Start a background compaction after this many appended events. */
  compactEvery: number;

  constructor(
    readonly dir: string,
    opts: { compactEvery?: number } = {},
  ) {
    this.compactEvery = opts.compactEvery ?? 20_000;
  }

  /** Loads the snapshot and replays the log after it; clears temp files a kill left behind. */
  open(): Loaded {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    chmodSync(this.dir, 0o700);
    for (const f of readdirSync(this.dir)) {
      // Our own temp files (only the lock holder writes them), and run-file temp files
      // (`.<hex>.tmp`, written by pm commands) that a kill left: those only when stale.
      if (TEMP.test(f)) rmSync(join(this.dir, f), { force: true });
      else if (RUN_TEMP.test(f)) {
        try {
          if (Date.now() - statSync(join(this.dir, f)).mtimeMs > 60_000) rmSync(join(this.dir, f), { force: true });
        } catch {
          // gone already
        }
      }
    }
    const snap = readSnapshot(this.dir);
    let state: SandboxState | null = snap?.state ?? null;
    if (state) {
      // Balances are the ledger's projection; an older snapshot without a ledger opens one from its balances.
      if (!state.ledger) openLedgers(state, new Date().toISOString());
      else state.accounts = projectAccounts(state);
    }
    let seq = snap?.seq ?? 0;
    const replayed: LogEntry[] = [];
    let tornTail = false;
    const warnings: string[] = [];
    const files = logFiles(this.dir);
    files.forEach((file, i) => {
      const { entries, lines, torn } = readLogFile(file, i === files.length - 1);
      if (torn) {
        if (i !== files.length - 1) throw corrupt(file, 'a torn line in a rotated segment');
        tornTail = true;
        warnings.push(torn);
      }
      entries.forEach((e, j) => {
        if (e.seq <= seq) return;
        try {
          state = apply(state, e);
        } catch (err) {
          throw corrupt(
            file,
            `line ${lines[j] ?? '?'}, event ${e.seq} (${e.type}) does not apply: ${err instanceof Error ? err.message : String(err)}`,
          );
        }
        seq = e.seq;
        replayed.push(e);
      });
    });
    let migrated = false;
    let serverKey = readKeyFile(this.dir);
    if (state) {
      const s: SandboxState = state;
      // An older data dir kept the key in the state: move it out (the next snapshot, at the
      // latest at close, drops it from the state file).
      if (typeof s.serverKey === 'string' && s.serverKey !== '') {
        if (serverKey !== s.serverKey) writeKeyFile(this.dir, s.serverKey);
        serverKey = s.serverKey;
        migrated = true;
      }
      delete s.serverKey;
      // No key: derived tokens and server wallets cannot be used; rehydrate names the file.
      if (serverKey === null) rehydrate(s, this.dir);
    }
    if (serverKey === null) {
      serverKey = newServerKey();
      writeKeyFile(this.dir, serverKey);
    }
    if (state) {
      const s: SandboxState = state;
      s.serverKey = serverKey;
      rehydrate(s, this.dir);
    }
    this.sinceSnapshot = replayed.length;
    this.fd = openSync(join(this.dir, LOG), 'a', 0o600);
    if (migrated && state) void this.compact(state, seq);
    return { state, seq, replayed, tornTail, warnings, serverKey };
  }

  /** Appends events and waits for the disk (fdatasync): call before acknowledging. Throws on a failed write, having cut it off. */
  append(entries: readonly LogEntry[], state: SandboxState): void {
    if (this.fd === null || entries.length === 0) return;
    const text = `${entries.map(encode).join('\n')}\n`;
    const fd = this.fd;
    const before = fstatSync(fd).size;
    try {
      const buf = Buffer.from(text, 'utf8');
      let off = 0;
      while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
      fdatasyncSync(fd);
    } catch (e) {
      // Leave no half batch behind (the caller keeps the events and retries with the next one).
      try {
        ftruncateSync(fd, before);
      } catch {
        // nothing more to do
      }
      throw e;
    }
    this.sinceSnapshot += entries.length;
    const last = entries[entries.length - 1];
    if (last && this.sinceSnapshot >= this.compactEvery && !this.compaction) void this.compact(state, last.seq);
  }

  /** Resolves when no compaction is running. */
  async idle(): Promise<void> {
    while (this.compaction) await this.compaction;
  }

  /**
   * Writes a snapshot of `state` (as of `seq`) in the background: rotates the live log out
   * first (appends go to a fresh file), copies the state (the only synchronous part), writes
   * it in chunks, renames it in, then drops the segments it covers.
   */
  compact(state: SandboxState, seq: number): Promise<void> {
    if (this.compaction) return this.compaction;
    if (this.fd === null) return Promise.resolve();
    const dir = this.dir;
    closeSync(this.fd);
    renameSync(join(dir, LOG), join(dir, `events.${seq}.ndjson`));
    this.fd = openSync(join(dir, LOG), 'a', 0o600);
    fsyncDir(dir);
    this.sinceSnapshot = 0;
    const frozen = freeze(state);
    const run = async (): Promise<void> => {
      const tmp = join(dir, `.snapshot.${randomBytes(4).toString('hex')}.tmp`);
      const fh = await openAsync(tmp, 'w', 0o600);
      try {
        let buf = '';
        for (const piece of snapshotPieces(frozen, seq)) {
          buf += piece;
          if (buf.length >= 1 << 20) {
            await fh.write(buf);
            buf = '';
          }
        }
        if (buf) await fh.write(buf);
        await fh.sync();
      } finally {
        await fh.close();
      }
      await renameAsync(tmp, stateFile(dir));
      fsyncDir(dir);
      for (const f of readdirSync(dir)) {
        const m = SEGMENT.exec(f);
        if (m && Number(m[1]) <= seq) await rmAsync(join(dir, f), { force: true });
      }
    };
    this.compaction = run()
      .catch((e: unknown) => {
        process.emitWarning(
          `sandbox: snapshot failed (the event log still holds everything): ${e instanceof Error ? e.message : String(e)}`,
        );
      })
      .finally(() => {
        this.compaction = null;
      });
    return this.compaction;
  }

  /** Final snapshot and close (clean shutdown). */
  async close(state: SandboxState, seq: number): Promise<void> {
    await this.idle();
    if (this.fd === null) return;
    if (this.sinceSnapshot > 0 || !existsSync(stateFile(this.dir))) await this.compact(state, seq);
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    rmSync(join(this.dir, LOG), { force: true, recursive: false });
    // An empty live log is gone; the snapshot covers everything up to `seq`.
  }
}
