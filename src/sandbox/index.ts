// The embedded exchange: `startSandbox()` serves REST at the root of its base URL and
// socket.io (namespace /markets) on the same port. It never imports the client code.
import type { AddressInfo } from 'node:net';
import { accountRoutes } from './routes/accounts.js';
import { marketRoutes } from './routes/markets.js';
import { orderRoutes } from './routes/orders.js';
import { adminRoutes } from './routes/admin.js';
import { createHttpServer, NO_FAULTS } from './server.js';
import { DEV_ACCOUNTS, seedState, seededToken } from './seed.js';
import { loadState, saveState } from './persist.js';
import { resumeSettlement } from './settlement.js';
import type { FaultConfig, SandboxContext, SandboxEvent, SandboxState } from './types.js';

export { seedState } from './seed.js';
export type { SandboxState, SandboxEvent, FaultConfig } from './types.js';

export interface SandboxOptions {
  /** TCP port; 0 picks a free one. */
  port?: number;
  /** Address to listen on (default 127.0.0.1). */
  host?: string;
  /** Persist to `${dataDir}/state.json`; null or absent keeps state in memory. */
  dataDir?: string | null;
  settlement?: { minedAfterMs: number; confirmedAfterMs: number };
  now?: () => number;
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
}

export interface ReadyInfo {
  baseUrl: string;
  wsUrl: string;
  pid: number;
  chainId: 8453;
  accounts: ReadyAccount[];
  markets: { slug: string; type: string; negRisk: boolean }[];
}

export interface SandboxHandle {
  baseUrl: string;
  wsUrl: string;
  port: number;
  info: ReadyInfo;
  ctx: SandboxContext;
  faults: FaultConfig;
  /** Subscribes to internal events; returns an unsubscribe. */
  onEvent(fn: (e: SandboxEvent) => void): () => void;
  reset(): void;
  close(): Promise<void>;
}

/** The seeded dev accounts as the ready line shows them. */
export function readyAccounts(state: SandboxState): ReadyAccount[] {
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
    };
  });
}

/**
 * Starts a sandbox exchange.
 * @example const sb = await startSandbox({ port: 0 }); … await sb.close();
 */
export async function startSandbox(opts: SandboxOptions = {}): Promise<SandboxHandle> {
  const now = opts.now ?? Date.now;
  const dataDir = opts.dataDir ?? null;
  const initial = (dataDir ? loadState(dataDir) : null) ?? seedState(now());
  const listeners = new Set<(e: SandboxEvent) => void>();
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;
  const ctx: SandboxContext = {
    state: initial,
    now,
    persist: () => {
      if (dataDir && !closed) saveState(dataDir, ctx.state);
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
  if (dataDir) saveState(dataDir, ctx.state);
  const faults: FaultConfig = { ...NO_FAULTS };
  const reset = (): void => {
    for (const t of timers) clearTimeout(t);
    timers.clear();
    ctx.state = seedState(now());
    Object.assign(faults, NO_FAULTS);
    ctx.persist();
  };
  const { server, sockets } = createHttpServer({ routes: [...marketRoutes, ...accountRoutes, ...orderRoutes], ctx, faults, admin: adminRoutes({ faults, reset, accounts: () => readyAccounts(ctx.state) }) });

  await new Promise<void>((resolve, reject) => {
    const onError = (e: Error): void => reject(e);
    server.once('error', onError);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => {
      server.off('error', onError);
      resolve();
    });
  });
  const { Server } = await import('socket.io');
  const io = new Server(server, { serveClient: false, transports: ['websocket', 'polling'] });
  io.of('/markets');
  resumeSettlement(ctx);

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
  };
  return {
    baseUrl,
    wsUrl,
    port: addr.port,
    info,
    ctx,
    faults,
    onEvent(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    reset,
    async close() {
      if (closed) return;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      await new Promise<void>((resolve) => {
        void io.close();
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
      closed = true;
    },
  };
}
