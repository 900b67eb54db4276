// The embedded exchange: `startSandbox()` serves REST at the root of its base URL and
// socket.io (namespace /markets) on the same port. It never imports the client code.
import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { accountRoutes } from './routes/accounts.js';
import { marketRoutes } from './routes/markets.js';
import { orderRoutes } from './routes/orders.js';
import { propertyRoutes } from './routes/properties.js';
import { portfolioRoutes } from './routes/portfolio.js';
import { portfolioAdminRoutes } from './routes/money-admin.js';
import { adminRoutes } from './routes/admin.js';
import { balanceAdminRoutes } from './routes/balance.js';
import { reportAdminRoutes } from './routes/report.js';
import { lifecycleRoutes } from './routes/lifecycle.js';
import { createStreams, type Streams } from './stream.js';
import { partnerAdminRoutes, partnerRoutes } from './routes/partner.js';
import { createHttpServer, NO_FAULTS } from './server.js';
import { DEV_ACCOUNTS, SERVER_WALLETS, seededToken } from './seed.js';
import { newServerKey } from './keyfile.js';
import { StateStore, type Loaded } from './store.js';
import { createCore, type Core } from './context.js';
import { acquireDirLock, type DirLock } from './lock.js';
import { resumeSettlement } from './settlement.js';
import { resumeAllowances, simOf } from './partner/allowances.js';
import type { SandboxChain } from './chain/local.js';
import type { SimulateOptions, Simulator } from './simulate.js';
import type { Replay, ReplayOptions } from './replay.js';
import { readRecording } from './recording.js';
import type { SandboxState } from './types.js';
import type { LogEntry } from './events.js';
import type { FaultConfig, Route, SandboxContext } from './handlers.js';

export { seedState } from './seed.js';
export { SandboxLockedError } from './lock.js';
export { RecordingError, readRecording } from './recording.js';
export type { LogEntry } from './events.js';

export interface SandboxOptions {
  /** TCP port; 0 picks a free one. */
  port?: number;
  /** Address to listen on (default 127.0.0.1). */
  host?: string;
  /**
   * Persist under this dir (event log `events.ndjson` + snapshot `state.json`, locked by
   * `lock.sock` while running); null or absent keeps state in memory.
   */
  dataDir?: string | null;
  /** Snapshot (compact the log) every this many events (default 20000). */
  compactEvery?: number;
  settlement?: { minedAfterMs: number; confirmedAfterMs: number };
  now?: () => number;
  /** Run a chain beside the sandbox (`--chain`): anvil from npm, or a running node at `rpcUrl`. */
  chain?: { rpcUrl?: string | undefined; chainId?: number | undefined } | undefined;
  /**
   * How long after a server-wallet sub-account is created the sandbox provisions its allowances
   * itself (default 2000 ms; also POST /__sandbox/allowances {provisionDelayMs}).
   */
  provisionDelayMs?: number;
  /**
   * Market activity (`--simulate`): bob and a few bots quote and trade on a timer, through the
   * engine and the event log like any order. `true` uses the default rate; off when absent.
   */
  simulate?: boolean | SimulateOptions | undefined;
  /**
   * Replay a recording of `pm record` (`--replay FILE`, replay.ts): its markets are created and
   * its book and trades re-created over time. A file that is not one throws RecordingError.
   */
  replay?: ({ file: string } & ReplayOptions) | undefined;
}

export interface ReadyAccount {
  name: string;
  role: string;
  address: string;
  privateKey: string;
  profileId: number;
  token: { tokenId: string; secret: string; scopes: string[] };
  apiKey: string;
  identityToken: string;
  /** The managed server wallet the account trades from, when it has one. */
  serverWallet?: string;
}

export interface ReadyInfo {
  /** Notes for the person starting the sandbox (e.g. a torn last log line dropped); absent when none. */
  warnings?: string[];
  baseUrl: string;
  wsUrl: string;
  pid: number;
  chainId: 8453;
  accounts: ReadyAccount[];
  markets: { slug: string; type: string; negRisk: boolean }[];
  /** With a chain: its JSON-RPC URL, chain id and the test contracts. */
  rpcUrl?: string;
  rpcChainId?: number;
  contracts?: { usdc: string; conditionalTokens: string };
  /** With --simulate: actions per second and the accounts that act. */
  simulate?: { rate: number; accounts: { name: string; profileId: number; role: string }[] };
  /** With --replay: the recording, its lines, the speed and the markets it plays. */
  replay?: { file: string; total: number; speed: number | 'max'; markets: string[]; torn: boolean };
}

export interface SandboxHandle {
  baseUrl: string;
  wsUrl: string;
  port: number;
  info: ReadyInfo;
  ctx: SandboxContext;
  faults: FaultConfig;
  /** The market-activity simulator, when started with `simulate`. */
  simulator: Simulator | null;
  /** The replay of a recording, when started with `replay`. */
  replay: Replay | null;
  /** Every route served: the exchange's (`api`) and /__sandbox's (`admin`), so tests can cover each. */
  routes: { api: Route[]; admin: Route[] };
  /**
   * Subscribes to the state event log from `fromSeq` on: entries still in memory first, then
   * each one as it is committed (after it is on disk). Returns an unsubscribe.
   */
  subscribe(fromSeq: number, cb: (e: LogEntry) => void): () => void;
  /** The sequence number of the last committed event. */
  seq(): number;
  /** Writes a snapshot now (in the background; resolves when it is on disk). No-op in memory. */
  snapshot(): Promise<void>;
  /** Back to the seed: the state at once, the chain (with --chain) when the promise resolves. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

/** The seeded dev accounts as the ready line shows them. */
function readyAccounts(state: SandboxState): ReadyAccount[] {
  return DEV_ACCOUNTS.map((a) => {
    const tok = state.tokens.find((t) => t.tokenId === seededToken(a.name).tokenId);
    return {
      name: a.name,
      role: a.role,
      address: a.address,
      privateKey: a.key,
      profileId: a.id,
      token: { tokenId: seededToken(a.name).tokenId, secret: seededToken(a.name).secret, scopes: tok ? [...tok.scopes] : [...a.scopes] },
      apiKey: `lmts_sandbox_${a.name}`,
      identityToken: `idt_sandbox_${a.name}`,
      ...(SERVER_WALLETS[a.name] ? { serverWallet: SERVER_WALLETS[a.name] } : {}),
    };
  });
}

/** The data dir, locked and loaded (snapshot + log); null in memory. */
interface Disk {
  lock: DirLock;
  store: StateStore;
  loaded: Loaded;
}

async function openDataDir(opts: SandboxOptions): Promise<Disk | null> {
  const dataDir = opts.dataDir ?? null;
  if (!dataDir) return null;
  const lock = await acquireDirLock(dataDir);
  try {
    const store = new StateStore(dataDir, opts.compactEvery === undefined ? {} : { compactEvery: opts.compactEvery });
    return { lock, store, loaded: store.open() };
  } catch (e) {
    await lock.release();
    throw e;
  }
}

/** Everything a running sandbox holds, for the steps that start and stop it. */
interface Running {
  core: Core;
  disk: Disk | null;
  chain: SandboxChain | null;
}

/** Closes what has been opened so far: the chain, the final snapshot, the lock. */
async function release(r: Running): Promise<void> {
  r.core.shut();
  await r.chain?.close();
  await r.disk?.store.close(r.core.ctx.state, r.core.log.seq);
  await r.disk?.lock.release();
}

function listen(server: Server, opts: SandboxOptions): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onError = (e: Error): void => reject(e);
    server.once('error', onError);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => {
      server.off('error', onError);
      resolve();
    });
  });
}

/** The ready line's facts. */
function readyInfo(
  server: Server,
  ctx: SandboxContext,
  r: Running,
  actors: { simulator: Simulator | null; replay: Replay | null },
): ReadyInfo {
  const { simulator, replay } = actors;
  const rs = replay?.status();
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  const warnings = r.disk?.loaded.warnings ?? [];
  return {
    baseUrl: `http://${host}:${addr.port}`,
    wsUrl: `ws://${host}:${addr.port}`,
    pid: process.pid,
    chainId: 8453,
    accounts: readyAccounts(ctx.state),
    markets: ctx.state.markets.map((m) => ({ slug: m.slug, type: m.tradeType, negRisk: m.negRiskRequestId !== null })),
    ...(r.chain ? { rpcUrl: r.chain.info.rpcUrl, rpcChainId: r.chain.info.chainId, contracts: r.chain.info.contracts } : {}),
    ...(simulator ? { simulate: { rate: simulator.rate, accounts: simulator.accounts.map((a) => ({ ...a })) } } : {}),
    ...(rs ? { replay: { file: rs.file, total: rs.total, speed: rs.speed, markets: rs.markets, torn: replay?.torn ?? false } } : {}),
    ...(warnings.length ? { warnings } : {}),
  };
}

/** The exchange's routes and /__sandbox's, with the reset they offer. */
function routesOf(
  r: Running,
  faults: FaultConfig,
  streams: Streams,
  reset: () => Promise<void>,
  replay: () => Replay | null,
): { api: Route[]; admin: Route[] } {
  const ctx = r.core.ctx;
  const api = [...marketRoutes, ...propertyRoutes, ...accountRoutes, ...orderRoutes, ...partnerRoutes, ...portfolioRoutes];
  const admin = [
    ...adminRoutes({ faults, reset, routes: () => api, accounts: () => readyAccounts(ctx.state), onFaults: () => streams.applyFaults() }),
    ...lifecycleRoutes,
    ...streams.routes,
    ...portfolioAdminRoutes,
    ...balanceAdminRoutes,
    ...reportAdminRoutes,
    ...partnerAdminRoutes,
    ...(r.chain?.routes ?? []),
    replayRoute(replay),
  ];
  return { api, admin };
}

/** GET /__sandbox/replay: where the replay stands (404 without one). */
function replayRoute(replay: () => Replay | null): Route {
  return {
    method: 'GET',
    pattern: '/__sandbox/replay',
    auth: { kind: 'public' },
    handler: () => {
      const rp = replay();
      return rp
        ? { status: 200, body: { ...rp.status() } }
        : { status: 404, body: { message: 'no replay: start the sandbox with --replay FILE' } };
    },
  };
}

/**
 * Starts a sandbox exchange.
 * @example const sb = await startSandbox({ port: 0 }); … await sb.close();
 */
export async function startSandbox(opts: SandboxOptions = {}): Promise<SandboxHandle> {
  const simRate = typeof opts.simulate === 'object' ? opts.simulate.rate : undefined;
  if (simRate !== undefined && !(simRate > 0 && simRate <= 1000))
    throw new RangeError(`simulate rate must be in (0, 1000] actions per second, got ${simRate}`);
  // A recording that cannot be replayed is refused before anything starts.
  const recording = opts.replay ? readRecording(opts.replay.file) : null;
  const disk = await openDataDir(opts);
  const core = createCore({
    loaded: disk?.loaded.state ? { state: disk.loaded.state, seq: disk.loaded.seq, replayed: disk.loaded.replayed } : null,
    store: disk?.store ?? null,
    // Token secrets and server-wallet keys derive from it; in memory without a data dir.
    serverKey: disk?.loaded.serverKey ?? newServerKey(),
    now: opts.now ?? Date.now,
    settlement: opts.settlement ?? { minedAfterMs: 300, confirmedAfterMs: 600 },
  });
  const { ctx, log } = core;
  const r: Running = { core, disk, chain: null };
  if (opts.chain) {
    const { attachChain } = await import('./chain.js');
    r.chain = await attachChain(ctx, { ...opts.chain, seeded: !disk?.loaded.state }).catch(async (e: unknown) => {
      await release(r);
      throw e;
    });
  }
  const faults: FaultConfig = { ...NO_FAULTS };
  // The state is back to the seed at once; with a chain, the promise resolves once the chain is
  // too (reverted to its snapshot, or deployed afresh for the seed).
  const reset = async (): Promise<void> => {
    core.clearTimers();
    Object.assign(faults, NO_FAULTS);
    ctx.apply({ type: 'reset', at: ctx.now() });
    await r.chain?.reset(ctx.state);
  };
  const streams = createStreams({ ctx, faults, subscribe: (fromSeq, cb) => log.subscribe(fromSeq, cb), seq: () => log.seq });
  let replay: Replay | null = null;
  const routes = routesOf(r, faults, streams, reset, () => replay);
  const { server, sockets } = createHttpServer({ routes: routes.api, ctx, faults, admin: routes.admin });
  await listen(server, opts).catch(async (e: unknown) => {
    await release(r);
    throw e;
  });
  const { Server: IoServer } = await import('socket.io');
  const io = new IoServer(server, { serveClient: false, transports: ['websocket', 'polling'] });
  streams.attach(io.of('/markets'));
  if (opts.provisionDelayMs !== undefined) simOf(ctx).provisionDelayMs = opts.provisionDelayMs;
  resumeSettlement(ctx);
  resumeAllowances(ctx);
  const simulator = opts.simulate ? (await import('./simulate.js')).startSimulator(ctx, opts.simulate === true ? {} : opts.simulate) : null;
  if (recording && opts.replay) replay = (await import('./replay.js')).startReplay(ctx, recording, opts.replay);
  const info = readyInfo(server, ctx, r, { simulator, replay });
  disk?.lock.update({ baseUrl: info.baseUrl, wsUrl: info.wsUrl });
  const close = async (): Promise<void> => {
    simulator?.stop(); // first: no order after this point
    replay?.stop();
    core.clearTimers();
    streams.close();
    await closeServer(server, sockets, () => void io.close());
    log.commit();
    await release(r);
  };
  return handle(info, r, { faults, simulator, replay, routes, reset, close });
}

/** Stops accepting, ends every open connection, resolves once the server is closed. */
function closeServer(server: Server, sockets: Set<Socket>, closeIo: () => void): Promise<void> {
  return new Promise<void>((resolve) => {
    closeIo();
    server.close(() => resolve());
    for (const s of sockets) s.destroy();
  });
}

/** The handle startSandbox returns. */
function handle(
  info: ReadyInfo,
  r: Running,
  o: {
    faults: FaultConfig;
    simulator: Simulator | null;
    replay: Replay | null;
    routes: { api: Route[]; admin: Route[] };
    reset: () => Promise<void>;
    close: () => Promise<void>;
  },
): SandboxHandle {
  const { ctx, log } = r.core;
  const store = r.disk?.store ?? null;
  let closing: Promise<void> | null = null;
  return {
    baseUrl: info.baseUrl,
    wsUrl: info.wsUrl,
    port: Number(new URL(info.baseUrl).port),
    info,
    ctx,
    faults: o.faults,
    simulator: o.simulator,
    replay: o.replay,
    routes: o.routes,
    subscribe: (fromSeq, cb) => log.subscribe(fromSeq, cb),
    seq: () => log.seq,
    snapshot: async () => {
      if (!store) return;
      await store.idle();
      log.commit();
      await store.compact(ctx.state, log.seq);
    },
    reset: o.reset,
    close: () => {
      closing ??= o.close();
      return closing;
    },
  };
}
