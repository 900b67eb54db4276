// The append-only money ledger of each profile: deposits, withdrawals, seeded grants, fills
// (with trade id and fee; mints and merges are fills `via` mint/merge) and redemptions. Balances
// and positions (shares, average cost basis, realised PnL) are its projection: `applyEntry` is
// the one fold step; the reducer books each entry with `book` (append + fold into the live
// account), and a load builds the accounts afresh from the ledgers (`projectAccounts`), so
// the two cannot drift. Locks are the other half of an account: what LIVE orders reserve.
import { buyLock } from './orders/amounts.js';
import type { Account, LedgerEntry, Position, SandboxState } from './types.js';

export interface ProjectedPosition {
  shares: bigint;
  cost: bigint;
  realisedPnl: bigint;
}

export interface ProjectedAccount {
  usdc: bigint;
  positions: Record<string, ProjectedPosition>;
}

/** Books a sale at average cost: the cost of the shares sold leaves, the rest is realised PnL. */
function realiseAverage(pos: { shares: bigint; cost: bigint; realisedPnl: bigint }, size: bigint, proceeds: bigint): void {
  const costOut = pos.shares > 0n ? (pos.cost * (size < pos.shares ? size : pos.shares)) / pos.shares : 0n;
  pos.cost -= costOut;
  pos.realisedPnl += proceeds - costOut;
}

const freshProjected = (): ProjectedPosition => ({ shares: 0n, cost: 0n, realisedPnl: 0n });
const freshPosition = (): Position => ({ shares: 0n, locked: 0n, cost: 0n, realisedPnl: 0n });

/** One ledger entry folded into balances and positions: the one step of every projection. */
function applyEntry<P extends ProjectedPosition>(
  out: { usdc: bigint; positions: Record<string, P> },
  e: LedgerEntry,
  fresh: () => P,
): void {
  const pos = (tokenId: string): P => {
    let p = out.positions[tokenId];
    if (!p) {
      p = fresh();
      out.positions[tokenId] = p;
    }
    return p;
  };
  const fee = e.fee ?? 0n;
  switch (e.kind) {
    case 'deposit':
      out.usdc += e.usdc;
      break;
    case 'withdrawal':
      out.usdc -= e.usdc;
      break;
    case 'grant': {
      const p = pos(e.tokenId ?? '');
      p.shares += e.shares ?? 0n;
      p.cost += e.cost ?? 0n;
      out.usdc += e.usdc;
      break;
    }
    case 'trade': {
      const p = pos(e.tokenId ?? '');
      const shares = e.shares ?? 0n;
      if (e.side === 'BUY') {
        out.usdc -= e.usdc + fee;
        p.shares += shares;
        p.cost += e.usdc + fee;
      } else {
        realiseAverage(p, shares, e.usdc - fee);
        p.shares -= shares;
        out.usdc += e.usdc - fee;
      }
      break;
    }
    case 'redemption': {
      const p = pos(e.tokenId ?? '');
      const shares = e.shares ?? 0n;
      realiseAverage(p, shares, e.usdc);
      p.shares -= shares;
      // Redeemed on the chain: the payout went to the wallet there, not to this balance.
      if (!e.onChain) out.usdc += e.usdc;
      break;
    }
  }
}

/** Folds one more entry into a projection (a walk through a ledger, entry by entry). */
export function foldEntry(out: ProjectedAccount, e: LedgerEntry): void {
  applyEntry(out, e, freshProjected);
}

/** Balances and positions from a ledger alone (no locks: those come from LIVE orders). */
export function projectAccount(ledger: readonly LedgerEntry[]): ProjectedAccount {
  const out: ProjectedAccount = { usdc: 0n, positions: {} };
  for (const e of ledger) foldEntry(out, e);
  return out;
}

/**
 * Every account of a state as the projection of its ledger and its LIVE orders' reservations,
 * built afresh (seed, load). Live, the reducer keeps the same projection up to date entry by
 * entry (book) and order by order.
 */
export function projectAccounts(state: SandboxState): Record<string, Account> {
  const accounts: Record<string, Account> = {};
  for (const [id, entries] of Object.entries(state.ledger ?? {})) {
    const acct: Account = { profileId: Number(id), usdc: 0n, lockedUsdc: 0n, positions: {} };
    for (const e of entries) applyEntry(acct, e, freshPosition);
    accounts[id] = acct;
  }
  for (const o of state.orders) {
    if (o.status !== 'LIVE') continue;
    const id = String(o.ownerId);
    const acct = (accounts[id] ??= { profileId: o.ownerId, usdc: 0n, lockedUsdc: 0n, positions: {} });
    if (o.side === 'BUY') acct.lockedUsdc += buyLock(o.remainingSize, o.price ?? 0n);
    else (acct.positions[o.tokenId] ??= freshPosition()).locked += o.remainingSize;
  }
  return accounts;
}

/** The opening entries for an account as it stands (the seed's balances and positions). */
function openingEntries(acct: Account, at: string): LedgerEntry[] {
  const out: LedgerEntry[] = [];
  if (acct.usdc !== 0n) out.push({ kind: 'deposit', at, usdc: acct.usdc });
  for (const [tokenId, p] of Object.entries(acct.positions)) {
    if (p.shares === 0n && p.cost === 0n) continue;
    out.push({ kind: 'grant', at, usdc: 0n, tokenId, shares: p.shares, cost: p.cost });
  }
  return out;
}

/**
 * Opens a ledger for every account of a state that has none (the seed's balances, or an older
 * state file), then makes the accounts its projection.
 */
export function openLedgers(state: SandboxState, at: string): void {
  const ledger: Record<string, LedgerEntry[]> = {};
  for (const [id, acct] of Object.entries(state.accounts)) ledger[id] = openingEntries(acct, at);
  state.ledger = ledger;
  state.accounts = projectAccounts(state);
}

/**
 * Books one entry: appends it to the profile's ledger and folds it into the account, the only
 * way a balance or a position (shares, cost, PnL) changes.
 */
export function book(state: SandboxState, profileId: number, e: LedgerEntry): void {
  const id = String(profileId);
  const ledger = (state.ledger ??= {});
  (ledger[id] ??= []).push(e);
  let acct = state.accounts[id];
  if (!acct) {
    acct = { profileId, usdc: 0n, lockedUsdc: 0n, positions: {} };
    state.accounts[id] = acct;
  }
  applyEntry(acct, e, freshPosition);
}

/** Where the live accounts differ from a fresh projection of the ledgers (empty = agree; tests). */
export function ledgerProblems(state: SandboxState): string[] {
  const problems: string[] = [];
  const ledger = state.ledger ?? {};
  const ids = new Set([...Object.keys(state.accounts), ...Object.keys(ledger)]);
  for (const id of ids) {
    const acct = state.accounts[id];
    const p = projectAccount(ledger[id] ?? []);
    const usdc = acct?.usdc ?? 0n;
    if (p.usdc !== usdc) problems.push(`profile ${id}: ledger usdc ${p.usdc} != account ${usdc}`);
    const tokens = new Set([...Object.keys(acct?.positions ?? {}), ...Object.keys(p.positions)]);
    for (const t of tokens) {
      const a = acct?.positions[t] ?? { shares: 0n, cost: 0n, realisedPnl: 0n };
      const b = p.positions[t] ?? { shares: 0n, cost: 0n, realisedPnl: 0n };
      if (a.shares !== b.shares || a.cost !== b.cost || a.realisedPnl !== b.realisedPnl) {
        problems.push(
          `profile ${id} token ${t}: ledger ${b.shares}/${b.cost}/${b.realisedPnl} != position ${a.shares}/${a.cost}/${a.realisedPnl} (shares/cost/pnl)`,
        );
      }
    }
  }
  return problems;
}
