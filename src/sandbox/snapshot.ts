// The snapshot (state.json): the state up to some seq, read back shape-checked (shape.ts) and
// written in the background in pieces (temp file, fsync, rename) by the store.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeOrWhy, encode } from './codec.js';
import { serialize } from './secrets.js';
import { checkState, ShapeError } from './shape.js';
import { corrupt } from './stateerror.js';
import type { LedgerEntry, SandboxState } from './types.js';

const SNAPSHOT_FORMAT = 'pm-sandbox-snapshot/1';

export function stateFile(dir: string): string {
  return join(dir, 'state.json');
}

/** Reads a snapshot (or a state file of the older one-file layout); null when absent. */
export function readSnapshot(dir: string): { state: SandboxState; seq: number } | null {
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

/** A deep enough copy of the state for a background snapshot (records mutated in place are copied). */
export function freeze(state: SandboxState): SandboxState {
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
export function* snapshotPieces(state: SandboxState, seq: number, chunk = 2000): Generator<string> {
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
