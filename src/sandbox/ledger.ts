// The append-only money ledger of each profile: deposits, withdrawals, seeded grants, fills
// (with trade id and fee; mints and merges are fills `via` mint/merge) and redemptions. The
// reducer appends to it as it books each event; `projectAccount` derives balances and positions
// (shares, average cost basis, realised PnL) from it alone, and auditState checks that this
// projection agrees with the accounts the engine keeps up to date in place.
import type { Account, LedgerEntry, SandboxState } from './types.js';

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
export function realiseAverage(pos: { shares: bigint; cost: bigint; realisedPnl: bigint }, size: bigint, proceeds: bigint): void {
  const costOut = pos.shares > 0n ? (pos.cost * (size < pos.shares ? size : pos.shares)) / pos.shares : 0n;
  pos.cost -= costOut;
  pos.realisedPnl += proceeds - costOut;
}

/** Balances and positions from a ledger alone (no locks: those come from LIVE orders). */
export function projectAccount(ledger: readonly LedgerEntry[]): ProjectedAccount {
  const out: ProjectedAccount = { usdc: 0n, positions: {} };
  const pos = (tokenId: string): ProjectedPosition => (out.positions[tokenId] ??= { shares: 0n, cost: 0n, realisedPnl: 0n });
  for (const e of ledger) {
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
        out.usdc += e.usdc;
        break;
      }
    }
  }
  return out;
}

/** The opening entries for an account as it stands (the seed's balances and positions). */
export function openingEntries(acct: Account, at: string): LedgerEntry[] {
  const out: LedgerEntry[] = [];
  if (acct.usdc !== 0n) out.push({ kind: 'deposit', at, usdc: acct.usdc });
  for (const [tokenId, p] of Object.entries(acct.positions)) {
    if (p.shares === 0n && p.cost === 0n) continue;
    out.push({ kind: 'grant', at, usdc: 0n, tokenId, shares: p.shares, cost: p.cost });
  }
  return out;
}

/** Opens a ledger for every account of a state that has none (seed, or an older state file). */
export function openLedgers(state: SandboxState, at: string): void {
  const ledger: Record<string, LedgerEntry[]> = {};
  for (const [id, acct] of Object.entries(state.accounts)) ledger[id] = openingEntries(acct, at);
  state.ledger = ledger;
}

/** Appends one entry to a profile's ledger (when the state keeps ledgers). */
export function book(state: SandboxState, profileId: number, e: LedgerEntry): void {
  if (!state.ledger) return;
  (state.ledger[String(profileId)] ??= []).push(e);
}

/** Where the projection of each ledger disagrees with the engine's accounts (empty = agree). */
export function ledgerProblems(state: SandboxState): string[] {
  if (!state.ledger) return [];
  const problems: string[] = [];
  const ids = new Set([...Object.keys(state.accounts), ...Object.keys(state.ledger)]);
  for (const id of ids) {
    const acct = state.accounts[id];
    const p = projectAccount(state.ledger[id] ?? []);
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
