// State on disk = a snapshot plus an append-only event log (dir 0700, files 0600):
//   events.ndjson      one logged event per line, appended and fsynced before a write is
//                      acknowledged (so an acknowledged order survives kill -9);
//   events.<S>.ndjson  an older segment, rotated out when a compaction started at seq S;
//   state.json         a snapshot of the state up to some seq, written in the background
//                      (temp file, fsync, rename) every COMPACT_EVERY events and at close.
//   server.key         the server key (hex, 0600) token secrets and server-wallet keys derive
//                      from (keys.ts), kept apart so that neither the snapshot nor the log
//                      holds it; created with the data dir.
// Loading = snapshot + replay of the events after its seq; every entry's shape is checked
// first (shape.ts), so a damaged one is a clear error naming the file and the line or entry.
// A torn last line (kill -9 mid write: never acknowledged) is dropped with a warning and cut
// off. bigints are tagged as {"$bigint":"…"}: an object, so no user string (a client order
// id, say) can ever be mistaken for one. Neither file holds a private key, a token secret or
// the server key: keys and secrets are derived again on load, the server key read from
// server.key. Balances are not stored either: the accounts are the ledger's projection.
import {
  closeSync,
  existsSync,
  fstatSync,
  statSync,
  fdatasyncSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  chmodSync,
  writeSync,
} from 'node:fs';
import { open as openAsync, rename as renameAsync, rm as rmAsync } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { checkLogEntry, checkState, LegacyEventError, ShapeError } from './shape.js';
import { join } from 'node:path';
import { apply } from './reducer.js';
import { openLedgers, projectAccounts } from './ledger.js';
import { DEV_KEYS, profileKey, tokenSecret } from './keys.js';
import { DEV_ACCOUNTS, seededCredentials, seededToken } from './seed.js';
import type { ApiToken, Hex, LedgerEntry, LogEntry, Profile, SandboxState } from './types.js';

function stateFile(dir: string): string {
  return join(dir, 'state.json');
}

/** The file holding the sandbox's server key (never the snapshot or the log). */
function keyFile(dir: string): string {
  return join(dir, 'server.key');
}

/**
 * Serialises state with tagged bigints. Private keys and token secrets are left out: they are
 * derived again on load (dev keys from the public mnemonic table, secrets and server-wallet keys
 * from the server key), so the file holds no key or secret in plain text.
 */
export function serialize(state: SandboxState): string {
  const { serverKey: _inKeyFile, ...rest } = state;
  const seeded = seededCredentials();
  const slim = {
    ...rest,
    profiles: state.profiles.map(slimProfile),
    tokens: state.tokens.map((t) => slimToken(state, t)),
    // The seeded API keys and identity tokens derive from the seed's names: not written.
    apiKeys: state.apiKeys.filter((k) => !seeded.apiKeys.some((s) => s.key === k.key)),
    identityTokens: state.identityTokens.filter((k) => !seeded.identityTokens.some((s) => s.token === k.token)),
  };
  return encode(slim);
}

/** A new server key (hex). */
export function newServerKey(): string {
  return randomBytes(32).toString('hex');
}

/**
 * A profile as stored: without its private key when that is derivable (a public dev key, or a
 * server wallet with a salt). Only a server wallet an older version created (a random key, no
 * salt) keeps it, or its key would be lost.
 */
function slimProfile(p: Profile): Omit<Profile, 'privateKey'> & { privateKey?: Hex } {
  const { privateKey, ...rest } = p;
  const derivable = p.walletSalt !== undefined || DEV_KEYS.get(p.address.toLowerCase()) === privateKey;
  return privateKey && !derivable ? { ...rest, privateKey } : rest;
}

/** A token as stored: without its secret when the server key (or the seed) derives it. */
function slimToken(state: SandboxState, t: ApiToken): Omit<ApiToken, 'secret'> & { secret?: string } {
  const { secret, ...rest } = t;
  return secret === expectedSecret(state, t.tokenId) ? rest : { ...rest, secret };
}

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
function decodeOrWhy(text: string): { ok: true; value: unknown } | { ok: false; why: string } {
  try {
    return { ok: true, value: decode(text) };
  } catch (e) {
    return { ok: false, why: e instanceof BadBigint ? e.message : 'not readable JSON' };
  }
}

/** The seeded tokens' secrets by token id (computed once). */
let seededSecrets: Map<string, string> | null = null;
/** Derived secrets by server key and token id: the event log asks for each token at every commit. */
const derivedSecrets = new Map<string, string>();

function expectedSecret(state: SandboxState, tokenId: string): string | undefined {
  seededSecrets ??= new Map(DEV_ACCOUNTS.map((a) => [seededToken(a.name).tokenId, seededToken(a.name).secret]));
  const seeded = seededSecrets.get(tokenId);
  if (seeded !== undefined) return seeded;
  if (!state.serverKey) return undefined;
  const k = `${state.serverKey}|${tokenId}`;
  let secret = derivedSecrets.get(k);
  if (secret === undefined) {
    if (derivedSecrets.size >= 100_000) derivedSecrets.clear();
    secret = tokenSecret(state.serverKey, tokenId);
    derivedSecrets.set(k, secret);
  }
  return secret;
}

/**
 * Restores what serialize (and the events) left out: private keys, token secrets. With `dir`,
 * a live token or a server wallet whose secret cannot be derived (no server key) is an error
 * naming the key file, not a token that silently never authenticates.
 */
export function rehydrate(state: SandboxState, dir?: string): SandboxState {
  const seeded = seededCredentials();
  const has = (id: number): boolean => state.profiles.some((p) => p.id === id);
  state.apiKeys = [
    ...seeded.apiKeys.filter((k) => has(k.profileId)),
    ...state.apiKeys.filter((k) => !seeded.apiKeys.some((s) => s.key === k.key)),
  ];
  state.identityTokens = [
    ...seeded.identityTokens.filter((k) => has(k.profileId)),
    ...state.identityTokens.filter((k) => !seeded.identityTokens.some((s) => s.token === k.token)),
  ];
  for (const p of state.profiles)
    if (!p.privateKey) {
      const k = profileKey(state.serverKey, p);
      if (k) p.privateKey = k;
      else if (dir !== undefined && p.walletSalt !== undefined)
        throw new SandboxStateError(keyFile(dir), `it is missing, and server wallet ${p.address} needs it to derive its key`);
    }
  for (const t of state.tokens) {
    if (typeof t.secret === 'string' && t.secret) continue;
    const s = expectedSecret(state, t.tokenId);
    if (s) t.secret = s;
    else if (dir !== undefined && t.revokedAt === null) {
      throw new SandboxStateError(keyFile(dir), `it is missing, and token ${t.tokenId} needs it to derive its secret`);
    }
  }
  return state;
}

/** Reads server.key: null when absent; a damaged one is an error naming it. */
function readKeyFile(dir: string): string | null {
  const file = keyFile(dir);
  if (!existsSync(file)) return null;
  const key = readFileSync(file, 'utf8').trim();
  if (!/^[0-9a-f]{64}$/.test(key)) throw new SandboxStateError(file, 'it should hold one 64-digit hex key');
  return key;
}

/** Writes server.key (0600) atomically and durably: temp file, fsync, rename, fsync the dir. */
function writeKeyFile(dir: string, key: string): void {
  const file = keyFile(dir);
  const tmp = join(dir, `.state.key-${randomBytes(4).toString('hex')}.tmp`);
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSync(fd, `${key}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
  fsyncDir(dir);
}

// ---------------------------------------------------------------- snapshot + event log

const LOG = 'events.ndjson';
const SEGMENT = /^events\.(\d+)\.ndjson$/;
const TEMP = /^\.(state|snapshot)\..*\.tmp$/;
const RUN_TEMP = /^\.[0-9a-f]{12}\.tmp$/;
const SNAPSHOT_FORMAT = 'pm-sandbox-snapshot/1';

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

/** A damaged (or too old) file in the data dir: names the file and the entry, and how to recover. */
class SandboxStateError extends Error {
  readonly code = 'ESANDBOXSTATE';
  readonly hint =
    "`pm sandbox reset` starts again from the seed (it drops the sandbox's orders, balances and derived tokens); or move the damaged file aside (or put back a copy of it) and start again.";
  constructor(
    readonly file: string,
    readonly why: string,
    older = false,
  ) {
    super(
      `the sandbox state file ${file} ${older ? 'was written by an older pm' : 'is corrupt'} (${why}); run \`pm sandbox reset\` to start from the seed`,
    );
  }
}

function corrupt(file: string, why: string): SandboxStateError {
  return new SandboxStateError(file, why);
}

function fsyncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // not supported on every platform; the renames are still atomic
  }
}

/** Reads a snapshot (or a state file of the older one-file layout); null when absent. */
function readSnapshot(dir: string): { state: SandboxState; seq: number } | null {
  const file = stateFile(dir);
  if (!existsSync(file)) return null;
  const read = decodeOrWhy(readFileSync(file, 'utf8'));
  if (!read.ok) throw corrupt(file, read.why);
  const o = read.value;
  if (typeof o !== 'object' || o === null || Array.isArray(o)) throw corrupt(file, 'not a snapshot object');
  const snap = o as Record<string, unknown>;
  let seq = 0;
  let raw: unknown;
  if (snap['format'] === SNAPSHOT_FORMAT) {
    seq = Number(snap['seq']);
    if (!Number.isSafeInteger(seq) || seq < 0) throw corrupt(file, 'entry seq should be a non-negative integer');
    const st = snap['state'];
    if (typeof st !== 'object' || st === null || Array.isArray(st)) throw corrupt(file, 'entry state should be an object');
    raw = {
      ...st,
      orders: snap['orders'],
      feed: snap['feed'],
      ...(snap['ledger'] !== undefined ? { ledger: snap['ledger'] as Record<string, LedgerEntry[]> } : {}),
    };
  } else {
    raw = snap; // the older layout: the bare state, no log
  }
  try {
    return { state: checkState(raw), seq };
  } catch (e) {
    if (e instanceof ShapeError)
      throw corrupt(
        file,
        `entry ${snap['format'] === SNAPSHOT_FORMAT && !/^(orders|feed|ledger)\b/.test(e.path) ? 'state.' : ''}${e.message}`,
      );
    throw e;
  }
}

/** The log files of a dir, oldest first: rotated segments by seq, then the live log. */
function logFiles(dir: string): string[] {
  const segs = readdirSync(dir)
    .map((f) => SEGMENT.exec(f))
    .filter((m): m is RegExpExecArray => m !== null)
    .sort((a, b) => Number(a[1]) - Number(b[1]))
    .map((m) => join(dir, m[0]));
  const live = join(dir, LOG);
  return existsSync(live) ? [...segs, live] : segs;
}

const NEWLINE = 0x0a;

/**
 * Parses one log file, deciding from its bytes: every line an append completed ends in a
 * newline, so only bytes after the last newline are a torn append (kill -9 mid-write, never
 * acknowledged): ignored, and cut off when `cut` (the live log, which is appended to next). A
 * complete line that cannot be read, wherever it is, is damage: an error naming the line.
 */
function readLogFile(file: string, cut: boolean): { entries: LogEntry[]; lines: number[]; torn: string | null } {
  const buf = readFileSync(file);
  const entries: LogEntry[] = [];
  const lines: number[] = []; // the line number of each entry
  const complete = buf.lastIndexOf(NEWLINE) + 1; // byte length of the newline-terminated lines
  let lineNo = 0;
  let lastSeq = 0;
  for (let pos = 0; pos < complete; ) {
    const nl = buf.indexOf(NEWLINE, pos);
    const line = buf.toString('utf8', pos, nl);
    pos = nl + 1;
    lineNo += 1;
    if (line.trim() === '') continue;
    const read = decodeOrWhy(line);
    if (!read.ok) throw corrupt(file, `line ${lineNo}: ${read.why}`);
    const e = checkedEntry(file, lineNo, read.value);
    if (e.seq <= lastSeq)
      throw corrupt(file, `line ${lineNo}, event ${e.seq} comes after event ${lastSeq}: the sequence numbers must grow`);
    lastSeq = e.seq;
    entries.push(e);
    lines.push(lineNo);
  }
  let torn: string | null = null;
  if (complete < buf.length) {
    torn = `dropped the torn last line (line ${lineNo + 1}) of ${file}: a write cut off mid-way (kill or crash), never acknowledged to any client`;
    if (cut) {
      const fd = openSync(file, 'r+');
      try {
        ftruncateSync(fd, complete);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    }
  }
  return { entries, lines, torn };
}

/** One decoded log line, shape-checked: the entry, or an error naming the file, the line and the field. */
function checkedEntry(file: string, lineNo: number, parsed: unknown): LogEntry {
  try {
    return checkLogEntry(parsed);
  } catch (err) {
    if (err instanceof LegacyEventError)
      throw new SandboxStateError(
        file,
        `line ${lineNo}: a "${err.type}" event; that version recorded tokens and profiles by diffing the whole state, this one records named events and does not read those`,
        true,
      );
    if (!(err instanceof ShapeError)) throw err;
    const o = parsed as Record<string, unknown> | null;
    const what =
      o && typeof o === 'object' && typeof o['seq'] === 'number'
        ? `event ${o['seq']}${typeof o['type'] === 'string' ? ` (${o['type']})` : ''}: `
        : '';
    throw corrupt(file, `line ${lineNo}, ${what}${err.message}`);
  }
}

/** A deep enough copy of the state for a background snapshot (records mutated in place are copied). */
function freeze(state: SandboxState): SandboxState {
  return {
    ...state,
    profiles: state.profiles.map((p) => ({ ...p })),
    tokens: state.tokens.map((t) => ({ ...t, scopes: [...t.scopes] })),
    apiKeys: state.apiKeys.map((k) => ({ ...k })),
    identityTokens: state.identityTokens.map((k) => ({ ...k })),
    accounts: {}, // not written: the projection of the ledger, rebuilt on load
    markets: state.markets.map((m) => ({ ...m, priceHistory: m.priceHistory.slice() })),
    // Orders change in place (fills, cancels, settlement); their execution and trades too.
    orders: state.orders.map((o) =>
      o.trades ? { ...o, execution: { ...o.execution }, trades: o.trades.map((t) => ({ ...t })) } : { ...o, execution: { ...o.execution } },
    ),
    feed: state.feed.slice(),
    ...(state.ledger ? { ledger: Object.fromEntries(Object.entries(state.ledger).map(([k, l]) => [k, l.slice()])) } : {}),
    // Allowlist entries get deletedAt in place.
    ...(state.withdrawalAddresses ? { withdrawalAddresses: state.withdrawalAddresses.map((e) => ({ ...e })) } : {}),
  };
}

/** The snapshot text in pieces, so a big state is written without one long stall. */
function* snapshotPieces(state: SandboxState, seq: number, chunk = 2000): Generator<string> {
  const { orders, feed, ledger, accounts: _projection, ...rest } = state;
  // A list's elements, `chunk` at a time (the brackets are the caller's).
  function* list(xs: readonly unknown[]): Generator<string> {
    for (let i = 0; i < xs.length; i += chunk)
      yield (i > 0 ? ',' : '') +
        xs
          .slice(i, i + chunk)
          .map(encode)
          .join(',');
  }
  yield `{"format":"${SNAPSHOT_FORMAT}","seq":${seq},"state":${serialize({ ...rest, orders: [], feed: [] } as unknown as SandboxState)},"orders":[`;
  yield* list(orders);
  yield '],"feed":[';
  yield* list(feed);
  yield ']';
  if (ledger) {
    yield ',"ledger":{';
    let first = true;
    for (const [id, entries] of Object.entries(ledger)) {
      yield `${first ? '' : ','}${JSON.stringify(id)}:[`;
      first = false;
      yield* list(entries);
      yield ']';
    }
    yield '}';
  }
  yield '}';
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
