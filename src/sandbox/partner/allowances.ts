// Allowance readiness of server-wallet sub-accounts, as the contract's state machine:
//   missing --provisioning or retry--> submitted --chain confirms--> confirmed
//   missing/failed(retryable) --provisioning or retry, submission fails--> failed {errorCode, retryable}
// As the real backend does, the sandbox provisions a new server wallet itself: provisionDelayMs
// after creation (default 2 s) it submits every target, then watches them confirm; each step is
// one logged `allowances` event. A failure the switch plans leaves work for the retry route.
// Targets come from the venues of the listed markets: for each exchange a USDC allowance
// (BUY) and a CTF approval (SELL), and for a NegRisk venue also a CTF approval to its adapter.
// Without a chain the chain is simulated: a submission is a random hash, confirmed by a timer,
// and "chain reads" are lazy: whoever reads a wallet's targets (GET, retry, a delegated order)
// first confirms the submitted ones whose time has come, as one logged `allowances` event.
// With a chain (--chain) a submission is a real transaction from the server wallet (its key is
// in the sandbox; the deployer pays its gas), `submitted` carries its hash, and every read asks
// the chain: a mined receipt with the approval in place is `confirmed`, a reverted one `failed`,
// an approval that is gone (revoked, chain reset) `missing` again.
// Every change is one event applied through ctx.apply; the retry lock, the per-wallet retry rate
// limit and the failure switch are run-time only, like the per-token rate limiter.
import { randomBytes, randomUUID } from 'node:crypto';
import { chainOf, type ChainHooks } from '../chainref.js';
import type { AllowanceTarget, MarketRecord, Side } from '../types.js';
import type { SandboxContext } from '../handlers.js';
import { setTimeout as sleep } from 'node:timers/promises';

/** A planned failure: the next `times` submissions of matching targets fail. */
export interface AllowanceFailure {
  /** Matches a target whose label contains this ('' = any). */
  label: string;
  errorCode: string;
  errorMessage: string;
  retryable: boolean;
  times: number;
}

/** Run-time knobs of the simulated chain and of the retry route (admin: /__sandbox/allowances). */
export interface AllowanceSim {
  /** How long after a server wallet is created the sandbox submits its targets itself. */
  provisionDelayMs: number;
  /** How long after submission the chain confirms a target. */
  confirmAfterMs: number;
  /** How long a retry holds the wallet lock (its live chain re-read). */
  lockMs: number;
  /** At most this many retries per wallet per window; the next gets 429 with retryAfterSeconds. */
  retryMax: number;
  retryWindowMs: number;
  failures: AllowanceFailure[];
  /** Statuses the retry route answered, newest last (tests read them). */
  answered: { profileId: number; status: number; at: number }[];
}

const DEFAULT_SIM: Omit<AllowanceSim, 'failures' | 'answered'> = {
  provisionDelayMs: 2000,
  confirmAfterMs: 800,
  lockMs: 150,
  retryMax: 3,
  retryWindowMs: 10_000,
};

const sims = new WeakMap<SandboxContext, AllowanceSim>();
const locks = new WeakMap<SandboxContext, Set<string>>();
const attempts = new WeakMap<SandboxContext, Map<string, number[]>>();

/** The simulation settings of one sandbox (created with the defaults on first use). */
export function simOf(ctx: SandboxContext): AllowanceSim {
  let s = sims.get(ctx);
  if (!s) {
    s = { ...DEFAULT_SIM, failures: [], answered: [] };
    sims.set(ctx, s);
  }
  return s;
}

/**
 * The wallet's targets after a live chain read: submitted targets whose confirmation time has
 * passed become confirmed (logged). Null for a profile without tracked allowances (one created
 * before they were tracked counts as provisioned).
 */
function readTargets(ctx: SandboxContext, profileId: number): AllowanceTarget[] | null {
  const cur = ctx.state.allowances?.[String(profileId)];
  if (!cur) return null;
  const now = ctx.now();
  if (!cur.some((t) => t.status === 'submitted' && (t.confirmAt ?? 0) <= now)) return cur;
  const next = cur.map((t): AllowanceTarget => {
    if (t.status !== 'submitted' || (t.confirmAt ?? 0) > now) return t;
    const { confirmAt: _c, ...rest } = t;
    return { ...rest, status: 'confirmed', retryable: false, txHash: `0x${randomBytes(32).toString('hex')}` };
  });
  ctx.apply({ type: 'allowances', at: now, profileId, targets: next });
  return ctx.state.allowances?.[String(profileId)] ?? next;
}

/** One target as the chain has it (see the header): the status follows approval and receipt. */
function fromChain(t: AllowanceTarget, r: { approved: boolean; receipt: 'success' | 'reverted' | null }): AllowanceTarget {
  const { confirmAt: _c, errorCode: _e, errorMessage: _m, ...rest } = t;
  if (r.approved) return t.status === 'confirmed' ? t : { ...rest, status: 'confirmed', retryable: false };
  if (t.status === 'submitted') {
    if (r.receipt === null) return t;
    if (r.receipt === 'reverted')
      return {
        ...rest,
        status: 'failed',
        retryable: true,
        errorCode: 'TRANSACTION_REVERTED',
        errorMessage: `transaction ${t.txHash ?? ''} reverted`,
      };
  }
  if (t.status === 'confirmed' || t.status === 'submitted') {
    const { txHash: _h, transactionId: _t, ...bare } = rest;
    return { ...bare, status: 'missing', retryable: true };
  }
  return t;
}

/**
 * With a chain: the wallet's targets after reading the chain (changes logged as one event). While
 * its targets are being submitted, only the submission confirms them: another read would find an
 * approval mined a moment ago and confirm it without its transaction, and the submission's commit
 * would then take it back to submitted. (Such a read still finds what is no longer on chain.)
 */
async function chainTargets(
  ctx: SandboxContext,
  chain: ChainHooks,
  profileId: number,
  submitting: boolean,
): Promise<AllowanceTarget[] | null> {
  const state = ctx.state;
  const cur = state.allowances?.[String(profileId)];
  const owner = state.profiles.find((p) => p.id === profileId)?.address;
  if (!cur || !owner) return cur ?? null;
  const reads = await chain.readTargets(owner, cur);
  // A reset or a retry may have committed meanwhile: only targets still as read are updated.
  const latest = ctx.state === state ? state.allowances?.[String(profileId)] : undefined;
  if (!latest) return ctx.state.allowances?.[String(profileId)] ?? null;
  const busy = !submitting && locks.get(ctx)?.has(owner.toLowerCase()) === true;
  let changed = false;
  const next = latest.map((t, i): AllowanceTarget => {
    const was = cur[i];
    const r = reads[i];
    if (!was || !r || was.label !== t.label || was.status !== t.status || was.txHash !== t.txHash) return t;
    const n = fromChain(t, r);
    if (busy && n.status === 'confirmed' && t.status !== 'confirmed') return t;
    if (n !== t) changed = true;
    return n;
  });
  if (!changed) return latest;
  ctx.apply({ type: 'allowances', at: ctx.now(), profileId, targets: next });
  return state.allowances?.[String(profileId)] ?? next;
}

/**
 * The wallet's targets after a live chain read: of the chain when the sandbox runs one, else of
 * the simulated timers (readTargets). Null for a profile without tracked allowances.
 * `submitting`: the read of a submission, which holds the wallet's lock.
 */
export async function liveTargets(ctx: SandboxContext, profileId: number, submitting = false): Promise<AllowanceTarget[] | null> {
  const chain = chainOf(ctx);
  return chain ? chainTargets(ctx, chain, profileId, submitting) : readTargets(ctx, profileId);
}

/** The targets an order needs: its side's targets for the market's venue (exchange, adapter). */
export async function missingFor(ctx: SandboxContext, profileId: number, market: MarketRecord, side: Side): Promise<AllowanceTarget[]> {
  const targets = await liveTargets(ctx, profileId);
  if (!targets || !market.venue) return [];
  const spenders = [market.venue.exchange, ...(market.venue.adapter ? [market.venue.adapter] : [])].map((a) => a.toLowerCase());
  return targets.filter((t) => t.requiredFor === side && spenders.includes(t.spenderOrOperator.toLowerCase()) && t.status !== 'confirmed');
}

/**
 * A live re-read, then a submission of each target still missing or failed-and-retryable (the
 * failure switch may make one fail). Returns the wallet's targets as they now stand, not yet
 * committed: the ones this call submitted, the others as the state has them after the awaits.
 */
async function submitTargets(ctx: SandboxContext, profileId: number, wallet: string): Promise<AllowanceTarget[]> {
  const sim = simOf(ctx);
  const state = ctx.state;
  const chain = chainOf(ctx);
  const current = (await liveTargets(ctx, profileId, true)) ?? [];
  const walletKey = state.profiles.find((p) => p.id === profileId)?.privateKey;
  const now = ctx.now();
  const next: AllowanceTarget[] = [];
  const mine = new Set<number>();
  for (const t of current) {
    if (!(t.status === 'missing' || (t.status === 'failed' && t.retryable))) {
      next.push(t);
      continue;
    }
    mine.add(next.length);
    const { errorCode: _e, errorMessage: _m, ...rest } = t;
    const f = sim.failures.find((x) => x.times > 0 && t.label.includes(x.label));
    if (f) {
      f.times -= 1;
      next.push({ ...rest, status: 'failed', retryable: f.retryable, errorCode: f.errorCode, errorMessage: f.errorMessage });
    } else if (!chain) {
      next.push({
        ...rest,
        status: 'submitted',
        retryable: false,
        transactionId: randomUUID(),
        userOperationHash: `0x${randomBytes(32).toString('hex')}`,
        confirmAt: now + sim.confirmAfterMs,
      });
    } else if (!walletKey) {
      next.push({
        ...rest,
        status: 'failed',
        retryable: false,
        errorCode: 'WALLET_KEY_UNAVAILABLE',
        errorMessage: `the sandbox holds no key for server wallet ${wallet}`,
      });
    } else {
      try {
        const txHash = await chain.submitTarget(walletKey, t);
        // The contract the transaction went to (a start with a chain deploys them afresh).
        const tokenAddress = t.type === 'USDC_ALLOWANCE' ? chain.contracts.usdc : chain.contracts.conditionalTokens;
        next.push({ ...rest, tokenAddress, status: 'submitted', retryable: false, transactionId: randomUUID(), txHash });
      } catch (e) {
        const msg =
          e instanceof Error ? ((e as Error & { shortMessage?: string }).shortMessage ?? e.message.split('\n')[0] ?? '') : String(e);
        next.push({ ...rest, status: 'failed', retryable: true, errorCode: 'TRANSACTION_SUBMISSION_FAILED', errorMessage: msg });
      }
    }
  }
  // A confirmation read may have committed while the chain was asked: keep what it found.
  const latest = state.allowances?.[String(profileId)] ?? [];
  return next.map((t, i) => (mine.has(i) || latest[i]?.label !== t.label ? t : (latest[i] ?? t)));
}

/** How often a watched wallet's submitted targets are read again, and for how long at most. */
const WATCH_EVERY_MS = 100;
const WATCH_FOR_MS = 60_000;

/**
 * Reads a wallet's targets again until none is submitted (each confirmation one logged event),
 * so they confirm on time whether or not anyone reads them.
 */
function watchConfirmation(ctx: SandboxContext, profileId: number, deadline = Date.now() + WATCH_FOR_MS): void {
  const state = ctx.state;
  const submitted = (ts: readonly AllowanceTarget[] | null | undefined): AllowanceTarget[] =>
    (ts ?? []).filter((t) => t.status === 'submitted');
  const pending = submitted(state.allowances?.[String(profileId)]);
  if (pending.length === 0 || Date.now() > deadline) return;
  // Without a chain the confirmation time is known: wake at the first one (and a little after).
  const due = Math.min(...pending.map((t) => t.confirmAt ?? 0)) - ctx.now();
  ctx.later(chainOf(ctx) ? WATCH_EVERY_MS : Math.max(due + 5, 5), () => {
    if (ctx.state !== state) return;
    void liveTargets(ctx, profileId).then(
      () => watchConfirmation(ctx, profileId, deadline),
      () => watchConfirmation(ctx, profileId, deadline),
    );
  });
}

/** Submits a new server wallet's targets provisionDelayMs after its creation, as the backend does. */
export function scheduleProvisioning(ctx: SandboxContext, profileId: number): void {
  const state = ctx.state;
  ctx.later(simOf(ctx).provisionDelayMs, () => {
    if (ctx.state === state) void provision(ctx, profileId);
  });
}

async function provision(ctx: SandboxContext, profileId: number): Promise<void> {
  const state = ctx.state;
  const wallet = state.profiles.find((p) => p.id === profileId)?.address;
  if (!wallet || !state.allowances?.[String(profileId)]) return;
  const held = locks.get(ctx) ?? new Set<string>();
  locks.set(ctx, held);
  const key = wallet.toLowerCase();
  if (held.has(key)) return; // a retry is submitting them already
  held.add(key);
  try {
    const next = await submitTargets(ctx, profileId, wallet);
    if (ctx.state !== state || !state.allowances?.[String(profileId)]) return;
    ctx.apply({ type: 'allowances', at: ctx.now(), profileId, targets: next });
    watchConfirmation(ctx, profileId);
  } catch {
    // the chain was unreachable: the targets stay missing, for the retry route
  } finally {
    held.delete(key);
  }
}

/**
 * After a restart: provisions the wallets created but never provisioned (every target missing,
 * none ever submitted), and watches the submitted targets confirm. With a chain, every start
 * deploys the contracts afresh, so no wallet's approvals are on it: each is provisioned again
 * (its first live read finds the targets missing), as a new wallet would be.
 */
export function resumeAllowances(ctx: SandboxContext): void {
  const redeployed = chainOf(ctx) !== undefined;
  for (const [id, targets] of Object.entries(ctx.state.allowances ?? {})) {
    const never = targets.every((t) => t.status === 'missing' && t.transactionId === undefined && t.txHash === undefined);
    if (targets.length > 0 && (redeployed || never)) scheduleProvisioning(ctx, Number(id));
    else watchConfirmation(ctx, Number(id));
  }
}

export type RetryOutcome = { ok: true; targets: AllowanceTarget[] } | { ok: false; status: 409 | 429; body: Record<string, unknown> };

/**
 * The retry route's work for one wallet: the short lock (409 while another retry runs), the
 * per-wallet rate limit (429 with retryAfterSeconds), a live re-read, then a submission of each
 * target still missing or failed-and-retryable. Only targets this call submitted change.
 */
export async function retryAllowances(ctx: SandboxContext, profileId: number, wallet: string): Promise<RetryOutcome> {
  const sim = simOf(ctx);
  const held = locks.get(ctx) ?? new Set<string>();
  locks.set(ctx, held);
  const key = wallet.toLowerCase();
  const answer = (o: RetryOutcome): RetryOutcome => {
    sim.answered.push({ profileId, status: o.ok ? 200 : o.status, at: ctx.now() });
    if (sim.answered.length > 200) sim.answered.splice(0, sim.answered.length - 200);
    return o;
  };
  if (held.has(key)) return answer({ ok: false, status: 409, body: { message: `allowance retry already running for wallet ${wallet}` } });
  const byWallet = attempts.get(ctx) ?? new Map<string, number[]>();
  attempts.set(ctx, byWallet);
  const t0 = Date.now(); // the limit is about real time, like the per-token limiter
  const recent = (byWallet.get(key) ?? []).filter((t) => t > t0 - sim.retryWindowMs);
  if (recent.length >= sim.retryMax) {
    const waitMs = (recent[0] ?? t0) + sim.retryWindowMs - t0;
    const retryAfterSeconds = Math.max(1, Math.ceil(waitMs / 1000));
    byWallet.set(key, recent);
    return answer({
      ok: false,
      status: 429,
      body: { message: `allowance retry rate limited for wallet ${wallet}: try again in ${retryAfterSeconds} s`, retryAfterSeconds },
    });
  }
  recent.push(t0);
  byWallet.set(key, recent);
  held.add(key);
  try {
    if (sim.lockMs > 0) await sleep(sim.lockMs);
    const state = ctx.state;
    const next = await submitTargets(ctx, profileId, wallet);
    // A reset while the lock was held replaced the state: nothing of this retry applies to it.
    if (ctx.state === state && ctx.state.allowances?.[String(profileId)]) {
      ctx.apply({ type: 'allowances', at: ctx.now(), profileId, targets: next });
      watchConfirmation(ctx, profileId);
    }
    return answer({ ok: true, targets: next });
  } finally {
    held.delete(key);
  }
}
