// Adds an EOA sub-account of a partner to a running in-process sandbox (until the partner
// routes create them): a child profile with a public dev key and some USDC.
import { SPARE_DEV_KEYS } from '../../src/sandbox/seed.js';
import type { SandboxHandle } from '../../src/sandbox/index.js';

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
  const id = state.nextProfileId++;
  state.profiles.push({
    id,
    name: `child-${id}`,
    role: 'sub_account',
    address: key.address,
    privateKey: key.key,
    feeRateBps: 300,
    parentProfileId: partnerId,
    displayName: `child-${id}`,
    createdAt: new Date().toISOString(),
  });
  state.accounts[String(id)] = { profileId: id, usdc: usdc * 1_000_000n, lockedUsdc: 0n, positions: {} };
  return { profileId: id, address: key.address, privateKey: key.key };
}
