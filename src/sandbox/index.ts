// The embedded exchange: `startSandbox()` serves REST at the root of its base URL and
// socket.io (namespace /markets) on the same port. It never imports the client code.
import type { AddressInfo } from 'node:net';
import { accountRoutes } from './routes/accounts.js';
import { marketRoutes } from './routes/markets.js';
import { orderRoutes } from './routes/orders.js';
import { propertyRoutes } from './routes/properties.js';
import { portfolioAdminRoutes, portfolioRoutes } from './routes/portfolio.js';
import { adminRoutes } from './routes/admin.js';
import { balanceAdminRoutes } from './routes/balance.js';
import { lifecycleRoutes } from './routes/lifecycle.js';
import { createStreams } from './stream.js';
import { partnerAdminRoutes, partnerRoutes } from './routes/partner.js';
import { createHttpServer, NO_FAULTS } from './server.js';
import { DEV_ACCOUNTS, SERVER_WALLETS, seededToken } from './seed.js';
import { newServerKey, StateStore } from './persist.js';
import { EventLog } from './log.js';
import { acquireDirLock, type DirLock } from './lock.js';
import { apply } from './reducer.js';
import { resumeSettlement } from './settlement.js';
import { resumeAllowances, simOf } from './partner/allowances.js';
import type { SimulateOptions, Simulator } from './simulate.js';
import type { FaultConfig, LogEntry, Route, SandboxContext, SandboxEvent, SandboxState, StateEvent } from './types.js';

export { seedState } from './seed.js';
export { SandboxLockedError } from './lock.js';
export type { LogEntry } from './types.js';

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
  /** Every route served: the exchange's (`api`) and /__sandbox's (`admin`), so tests can cover each. */
  routes: { api: Route[]; admin: Route[] };
  /** Subscribes to internal events; returns an unsubscribe. */
  onEvent(fn: (e: SandboxEvent) => void): () => void;
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

/**
 * Starts a sandbox exchange.
 * @example const sb = await startSandbox({ port: 0 }); … await sb.close();
 */
export async function startSandbox(opts: SandboxOptions = {}): Promise<SandboxHandle> {
  const now = opts.now ?? Date.now;
  const simRate = typeof opts.simulate === 'object' ? opts.simulate.rate : undefined;
  if (simRate !== undefined && !(simRate > 0 && simRate <= 1000))
    throw new RangeError(`simulate rate must be in (0, 1000] actions per second, got ${simRate}`);
  const dataDir = opts.dataDir ?? null;
  let lock: DirLock | null = null;
  let store: StateStore | null = null;
  let initial: SandboxState | null = null;
  let seq = 0;
  let history: LogEntry[] = [];
  let warnings: string[] = [];
  // Token secrets and server-wallet keys derive from it; in memory without a data dir.
  let serverKey = newServerKey();
  if (dataDir) {
    lock = await acquireDirLock(dataDir);
    try {
      store = new StateStore(dataDir, opts.compactEvery === undefined ? {} : { compactEvery: opts.compactEvery });
      const loaded = store.open();
      initial = loaded.state;
      seq = loaded.seq;
      history = loaded.replayed;
      warnings = loaded.warnings;
      serverKey = loaded.serverKey;
    } catch (e) {
      await lock.release();
      throw e;
    }
  }
  const log = new EventLog(seq, store, 50_000, history);
  let seedEvent: StateEvent | null = null;
  if (!initial) {
    seedEvent = { type: 'seed', at: now() };
    initial = apply(null, seedEvent);
    initial.serverKey = serverKey;
  }
  log.watch(initial);
  if (seedEvent) {
    log.record(seedEvent);
    log.commit();
  }
  const listeners = new Set<(e: SandboxEvent) => void>();
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;
  const ctx: SandboxContext = {
    state: initial,
    now,
    persist: () => {
      if (!closed) log.commit();
    },
    emit: (e) => {
      for (const fn of listeners) fn(e);
    },
    settlement: opts.settlement ?? { minedAfterMs: 300, confirmedAfterMs: 600 },
    later: (ms, fn) => {
      if (closed) return;
      const t = setTimeout(() => {
        timers.delete(t);
        if (!closed) fn();
      }, ms);
      timers.add(t);
    },
  };
  const chain = opts.chain
    ? await (await import('./chain.js')).attachChain(ctx, { ...opts.chain, seeded: seedEvent !== null }).catch(async (e: unknown) => {
        closed = true;
        await store?.close(ctx.state, log.seq);
        await lock?.release();
        throw e;
      })
    : null;
  const faults: FaultConfig = { ...NO_FAULTS };
  // The state is back to the seed at once; with a chain, the promise resolves once the chain is
  // too (reverted to its snapshot, or deployed afresh for the seed).
  const reset = async (): Promise<void> => {
    for (const t of timers) clearTimeout(t);
    timers.clear();
    log.commit(); // anything pending belongs to the old state
    const ev: StateEvent = { type: 'reset', at: now() };
    ctx.state = apply(ctx.state, ev);
    ctx.state.serverKey = serverKey; // the data dir's key outlives a reset
    log.watch(ctx.state);
    log.record(ev);
    Object.assign(faults, NO_FAULTS);
    ctx.persist();
    await chain?.reset(ctx.state);
  };
  const streams = createStreams({ ctx, faults, subscribe: (fromSeq, cb) => log.subscribe(fromSeq, cb), seq: () => log.seq });
  const admin = [
    ...adminRoutes({ faults, reset, accounts: () => readyAccounts(ctx.state), onFaults: () => streams.applyFaults() }),
    ...lifecycleRoutes,
    ...streams.routes,
    ...portfolioAdminRoutes,
    ...balanceAdminRoutes,
    ...partnerAdminRoutes,
    ...(chain?.routes ?? []),
  ];
  const api = [...marketRoutes, ...propertyRoutes, ...accountRoutes, ...orderRoutes, ...partnerRoutes, ...portfolioRoutes];
  const { server, sockets } = createHttpServer({
    routes: api,
    ctx,
    faults,
    admin,
  });

  try {
    await new Promise<void>((resolve, reject) => {
      const onError = (e: Error): void => reject(e);
      server.once('error', onError);
      server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => {
        server.off('error', onError);
        resolve();
      });
    });
  } catch (e) {
    closed = true;
    await chain?.close();
    await store?.close(ctx.state, log.seq);
    await lock?.release();
    throw e;
  }
  const { Server } = await import('socket.io');
  const io = new Server(server, { serveClient: false, transports: ['websocket', 'polling'] });
  streams.attach(io.of('/markets'));
  if (opts.provisionDelayMs !== undefined) simOf(ctx).provisionDelayMs = opts.provisionDelayMs;
  resumeSettlement(ctx);
  resumeAllowances(ctx);
  const simulator = opts.simulate ? (await import('./simulate.js')).startSimulator(ctx, opts.simulate === true ? {} : opts.simulate) : null;

  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  const baseUrl = `http://${host}:${addr.port}`;
  const wsUrl = `ws://${host}:${addr.port}`;
  const info: ReadyInfo = {
    baseUrl,
    wsUrl,
    pid: process.pid,
    chainId: 8453,
    accounts: readyAccounts(ctx.state),
    markets: ctx.state.markets.map((m) => ({ slug: m.slug, type: m.tradeType, negRisk: m.negRiskRequestId !== null })),
    ...(chain ? { rpcUrl: chain.info.rpcUrl, rpcChainId: chain.info.chainId, contracts: chain.info.contracts } : {}),
    ...(simulator ? { simulate: { rate: simulator.rate, accounts: simulator.accounts.map((a) => ({ ...a })) } } : {}),
    ...(warnings.length ? { warnings } : {}),
  };
  lock?.update({ baseUrl, wsUrl });
  return {
    baseUrl,
    wsUrl,
    port: addr.port,
    info,
    ctx,
    faults,
    simulator,
    routes: { api, admin },
    onEvent(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    subscribe: (fromSeq, cb) => log.subscribe(fromSeq, cb),
    seq: () => log.seq,
    snapshot: async () => {
      if (!store) return;
      await store.idle();
      log.commit();
      await store.compact(ctx.state, log.seq);
    },
    reset,
    async close() {
      if (closed) return;
      simulator?.stop(); // first: no order after this point
      for (const t of timers) clearTimeout(t);
      timers.clear();
      streams.close();
      await new Promise<void>((resolve) => {
        void io.close();
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
      log.commit();
      closed = true;
      await store?.close(ctx.state, log.seq);
      await lock?.release();
      await chain?.close();
    },
  };
}
