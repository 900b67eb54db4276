// A small partner backend on pm's library: it opens two sub-accounts for new users (one with a
// server wallet the exchange signs for, one EOA whose key the backend keeps), waits until each is
// funded, places a bid for each and moves it once with a cancel-replace, reports the bids and
// balances, and cancels the sub-accounts' orders on the way out. One JSON line per step on stdout.
//
//   pm sandbox start --ephemeral &
//   PM_BASE_URL=http://127.0.0.1:8787 PM_PRIVATE_KEY=… PM_TOKEN_ID=… PM_TOKEN_SECRET=… \
//     node partner-backend.js btc-100k-2026            # (compiled with tsc; the partner's credentials)
//   pm sandbox fund 20 --to <profileId>     # in another shell, for each created profileId: the users' deposits
//
// The partner's token needs the account_creation and delegated_signing scopes.
import { setTimeout as sleep } from 'node:timers/promises';
import { createClient } from 'pm-cli';
import type { EoaSubAccount, PmClient, ServerWalletSubAccount } from 'pm-cli';

const env = process.env;
const market = process.argv[2] ?? 'btc-100k-2026';
const say = (event: string, fields: Record<string, unknown>): void => console.log(JSON.stringify({ event, ...fields }));

const options = {
  baseUrl: env['PM_BASE_URL'],
  privateKey: env['PM_PRIVATE_KEY'],
  token: env['PM_TOKEN_ID'] ? { tokenId: env['PM_TOKEN_ID'], secret: env['PM_TOKEN_SECRET'] ?? '' } : undefined,
};
const pm = createClient(options);

/** Waits (at most 60 s) until the sub-account holds at least `usdc` free. */
async function funded(profileId: number, usdc: string): Promise<string> {
  for (let i = 0; i < 240; i++) {
    const b = await pm.funds.balance({ onBehalfOf: profileId });
    if (BigInt(b.usdc.freeRaw) >= BigInt(usdc) * 1_000_000n) return b.usdc.free;
    await sleep(250);
  }
  throw new Error(`sub-account ${profileId} was not funded within 60 s`);
}

/** A bid for YES, moved up one cent with a cancel-replace: the replacement's id. */
async function quote(user: ServerWalletSubAccount | EoaSubAccount): Promise<string> {
  const delegated = user.mode === 'server-wallet';
  const first = await pm.orders.place({
    market,
    side: 'buy',
    outcome: 'yes',
    price: '0.05',
    size: '10',
    clientId: `welcome-${user.profileId}`,
    onBehalfOf: user.profileId,
    delegated,
  });
  const moved = await pm.orders.replace(first.order.id, {
    price: '0.06',
    clientId: `welcome-${user.profileId}-2`,
    onBehalfOf: user.profileId,
    delegated,
  });
  if (!moved.replacement) throw new Error(`the replace failed: ${moved.error?.message ?? moved.cancelled.status}`);
  say('quoted', { profileId: user.profileId, mode: user.mode, replaced: first.order.id, order: moved.replacement.order.id });
  return moved.replacement.order.id;
}

const server = await pm.partner.create({ serverWallet: true, displayName: 'user-1' });
say('created', { profileId: server.profileId, mode: server.mode, account: server.account });
// No profile in use: the EOA's key comes back to the backend, which keeps it (its own secret store in real life).
const eoa = await pm.partner.create({ serverWallet: false, displayName: 'user-2' });
const keys = 'privateKey' in eoa ? [eoa.privateKey] : [];
say('created', { profileId: eoa.profileId, mode: eoa.mode, account: eoa.account });

const ready = await pm.partner.allowances(server.profileId, { wait: true, retry: true });
say('allowances', { profileId: server.profileId, ready: ready.ready });

const users = [server, eoa];
const children: PmClient[] = [];
try {
  for (const user of users) {
    say('funded', { profileId: user.profileId, free: await funded(user.profileId, '1') });
    await quote(user);
    // A client acting for the user (given the EOA key the backend keeps): its orders and balance.
    const child = createClient({ ...options, onBehalfOf: user.profileId, subAccountKeys: keys });
    children.push(child);
    const open = await child.orders.list({ market });
    const b = await pm.funds.balance({ onBehalfOf: user.profileId });
    say('open', {
      profileId: user.profileId,
      orders: open.map((o) => ({ id: o.id, price: o.price, remaining: o.remaining })),
      locked: b.usdc.locked,
    });
  }
} finally {
  for (const child of children) {
    const r = await child.orders.cancelAll();
    say('cancelled', { orders: r.results.filter((e) => e.status === 'CANCELLED').length });
    await child.close();
  }
  await pm.close();
}
