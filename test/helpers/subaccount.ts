// Adds an EOA sub-account of a partner to a running in-process sandbox without the signing-
// message dance: a child profile with a public dev key and some USDC, committed as the events
// the routes would log (profile.created, funds.deposited).
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { SPARE_DEV_KEYS } from '../../src/sandbox/seed.js';
import type { SandboxHandle } from '../../src/sandbox/index.js';
import type { Scope } from '../../src/sandbox/types.js';

let next = 1;

export function addSubAccount(
  sb: SandboxHandle,
  partnerId: number,
  usdc = 1_000n,
): { profileId: number; address: string; privateKey: `0x${string}` } {
  const key = SPARE_DEV_KEYS[next++ % SPARE_DEV_KEYS.length];
  if (!key) throw new Error('no spare dev key');
  const state = sb.ctx.state;
  const existing = state.profiles.find((p) => p.address.toLowerCase() === key.address.toLowerCase());
  if (existing) return { profileId: existing.id, address: existing.address, privateKey: key.key };
  const id = state.nextProfileId;
  const at = sb.ctx.now();
  const profile = {
    id,
    name: `child-${id}`,
    role: 'sub_account' as const,
    address: key.address,
    feeRateBps: 300,
    parentProfileId: partnerId,
    displayName: `child-${id}`,
    createdAt: new Date(at).toISOString(),
  };
  sb.ctx.apply(
    { type: 'profile.created', at, profile },
    ...(usdc > 0n
      ? [{ type: 'funds.deposited' as const, at, profileId: id, amount: usdc * 1_000_000n, txHash: `0x${'0'.repeat(64)}` }]
      : []),
  );
  return { profileId: id, address: key.address, privateKey: key.key };
}

/**
 * Adds another partner, `p2` (profile `id`, a fresh random address), with an API token of
 * `scopes`, written straight into the state: a second partner that must not see the first's children.
 */
export function addOtherPartner(sb: SandboxHandle, id: number, token: { tokenId: string; secret: string }, scopes: Scope[]): void {
  const state = sb.ctx.state;
  state.profiles.push({
    id,
    name: 'p2',
    role: 'partner',
    address: privateKeyToAccount(generatePrivateKey()).address,
    feeRateBps: 300,
    displayName: 'p2',
    createdAt: new Date().toISOString(),
  });
  state.tokens.push({
    ...token,
    profileId: id,
    scopes,
    label: null,
    createdAt: new Date().toISOString(),
    lastUsedAt: null,
    revokedAt: null,
  });
}
