// The allowance targets of a server wallet: which approvals it needs (one set per venue of the
// listed markets), and the readiness object the contract answers with.
import { chainOf } from '../chainref.js';
import type { SandboxContext } from '../handlers.js';
import type { AllowanceTarget, Hex, SandboxState } from '../types.js';

const USDC_ADDRESS: Hex = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const CTF_ADDRESS: Hex = '0xC9c98965297Bc527861c898329Ee280632B76e18';

/**
 * The targets a fresh server wallet needs, one set per venue of the listed markets; with a chain
 * on `ctx`, its token contracts are the ones named.
 */
export function initialTargets(state: SandboxState, ctx?: SandboxContext): AllowanceTarget[] {
  const tokens = (ctx && chainOf(ctx)?.contracts) ?? { usdc: USDC_ADDRESS, conditionalTokens: CTF_ADDRESS };
  const venues = new Map<string, { exchange: Hex; adapter: Hex | null }>();
  for (const m of state.markets) if (m.venue) venues.set(m.venue.exchange.toLowerCase(), m.venue);
  const out: AllowanceTarget[] = [];
  for (const v of venues.values()) {
    const name = v.adapter ? 'negrisk-exchange' : 'ctf-exchange';
    const base = { status: 'missing' as const, retryable: true };
    out.push({
      type: 'USDC_ALLOWANCE',
      tokenAddress: tokens.usdc,
      spenderOrOperator: v.exchange,
      label: `usdc:${name}`,
      requiredFor: 'BUY',
      ...base,
    });
    out.push({
      type: 'CTF_APPROVAL',
      tokenAddress: tokens.conditionalTokens,
      spenderOrOperator: v.exchange,
      label: `ctf:${name}`,
      requiredFor: 'SELL',
      ...base,
    });
    if (v.adapter)
      out.push({
        type: 'CTF_APPROVAL',
        tokenAddress: tokens.conditionalTokens,
        spenderOrOperator: v.adapter,
        label: 'ctf:negrisk-adapter',
        requiredFor: 'SELL',
        ...base,
      });
  }
  return out;
}

/** The readiness object of the contract. */
export function allowanceView(
  profile: { id: number; address: string; parentProfileId?: number | undefined },
  targets: readonly AllowanceTarget[],
): Record<string, unknown> {
  const count = (s: AllowanceTarget['status']): number => targets.filter((t) => t.status === s).length;
  const confirmed = count('confirmed');
  return {
    profileId: profile.id,
    partnerProfileId: profile.parentProfileId ?? null,
    chainId: 8453,
    walletAddress: profile.address,
    ready: targets.length > 0 && confirmed === targets.length,
    summary: { total: targets.length, confirmed, missing: count('missing'), submitted: count('submitted'), failed: count('failed') },
    targets: targets.map((t) => {
      const { confirmAt: _c, ...rest } = t;
      return { ...rest, confirmed: t.status === 'confirmed' };
    }),
  };
}
