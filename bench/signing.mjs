// EIP-712 order signatures per second: pm's signer (its key account, on node:crypto: the path
// every order command takes) against viem's and ethers' signTypedData, same orders, same key,
// alternating rounds in one process.
import { performance } from 'node:perf_hooks';

export async function run() {
  const { signOrder, orderDomain, ORDER_TYPES } = await import('../dist/core/trade/eip712.js');
  const { keyAccount } = await import('../dist/keystore/key-account.js');
  const { privateKeyToAccount } = await import('viem/accounts');
  const { Wallet } = await import('ethers');
  const key = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
  const exchange = '0x05c748E2f4DcDe0ec9Fa8DDc40DE6b867f923fa5';
  const account = keyAccount(key);
  const viemAccount = privateKeyToAccount(key);
  const wallet = new Wallet(key);
  const n = Number(process.env.BENCH_SIGNATURES ?? 1000);
  const order = (i) => ({
    salt: BigInt(1_700_000_000_000 + i),
    maker: account.address,
    signer: account.address,
    taker: '0x0000000000000000000000000000000000000000',
    tokenId: 12345n + BigInt(i),
    makerAmount: 4_200_000n,
    takerAmount: 10_000_000n,
    expiration: 0n,
    nonce: 0n,
    feeRateBps: 300n,
    side: 0,
    signatureType: 0,
  });
  const domain = orderDomain(exchange);
  const ours = async () => {
    for (let i = 0; i < n; i++) await signOrder(account, exchange, order(i));
  };
  const theirs = async () => {
    for (let i = 0; i < n; i++) await wallet.signTypedData(domain, ORDER_TYPES, order(i));
  };
  const viemTyped = async () => {
    for (let i = 0; i < n; i++) await viemAccount.signTypedData({ domain, types: ORDER_TYPES, primaryType: 'Order', message: order(i) });
  };
  // Same signature from both (RFC 6979), checked once.
  const a = await signOrder(account, exchange, order(1));
  const b = await wallet.signTypedData(domain, ORDER_TYPES, order(1));
  if (a !== b) throw new Error('signatures differ between pm and ethers');
  await ours();
  await theirs();
  await viemTyped(); // warm-up
  const rounds = { ours: [], ethers: [], viem: [] };
  for (let r = 0; r < 3; r++) {
    let t = performance.now();
    await ours();
    rounds.ours.push((n / (performance.now() - t)) * 1000);
    t = performance.now();
    await theirs();
    rounds.ethers.push((n / (performance.now() - t)) * 1000);
    t = performance.now();
    await viemTyped();
    rounds.viem.push((n / (performance.now() - t)) * 1000);
  }
  const best = (xs) => Math.max(...xs);
  return {
    title: 'EIP-712 order signing',
    text: `${n} orders per round, 3 alternating rounds after a warm-up; signatures are byte-identical.\n\n| signer | signatures/s (rounds) | best |\n|---|---|---|\n| pm (cached domain separator and type hash, \`account.sign\` on the digest: node:crypto, OpenSSL k·G, RFC 6979 on its HMAC) | ${rounds.ours.map((x) => Math.round(x)).join(' / ')} | ${Math.round(best(rounds.ours))} |\n| viem \`signTypedData\` (what pm used before) | ${rounds.viem.map((x) => Math.round(x)).join(' / ')} | ${Math.round(best(rounds.viem))} |\n| ethers 6 \`Wallet.signTypedData\` | ${rounds.ethers.map((x) => Math.round(x)).join(' / ')} | ${Math.round(best(rounds.ethers))} |\n\npm / ethers: ${(best(rounds.ours) / best(rounds.ethers)).toFixed(2)}×; pm / viem signTypedData: ${(best(rounds.ours) / best(rounds.viem)).toFixed(2)}×.`,
  };
}
