// Raw HTTP against a started sandbox, signed here (node:crypto HMAC, ethers EIP-712) rather than
// with the client's or the sandbox's code, for tests that need bytes no SDK would send: a
// tampered signature, odd keys in a body.
import { createHmac } from 'node:crypto';
import { Wallet } from 'ethers';
import type { ReadyAccount, SandboxHandle } from '../../src/sandbox/index.js';
import { seeded } from './account-env.js';
import { ORDER_TYPES } from './eip712.js';

export type Json = Record<string, unknown>;

export interface Reply {
  status: number;
  json: unknown;
}

export { seeded };

/** The exchange's HMAC headers for one request of `who` (wire-facts §2). */
export function hmac(who: ReadyAccount, method: string, target: string, raw: string): Record<string, string> {
  const ts = new Date().toISOString();
  const sig = createHmac('sha256', Buffer.from(who.token.secret, 'base64')).update(`${ts}\n${method}\n${target}\n${raw}`).digest('base64');
  return { 'lmts-api-key': who.token.tokenId, 'lmts-timestamp': ts, 'lmts-signature': sig };
}

/** Sends `raw` (a JSON text, sent verbatim) with `headers`; the answer's body parsed when it is JSON. */
export async function send(
  sb: SandboxHandle,
  method: string,
  target: string,
  headers: Record<string, string>,
  raw?: string,
): Promise<Reply> {
  const res = await fetch(`${sb.baseUrl}${target}`, {
    method,
    headers: raw === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    ...(raw === undefined ? {} : { body: raw }),
  });
  const text = await res.text();
  try {
    return { status: res.status, json: JSON.parse(text) as unknown };
  } catch {
    return { status: res.status, json: text };
  }
}

/** Turns the sandbox's per-token pacing off (tests that fire many requests on one token). */
export async function unpaced(sb: SandboxHandle): Promise<void> {
  const r = await send(sb, 'POST', '/__sandbox/faults', {}, JSON.stringify({ rateLimit: false }));
  if (r.status !== 200) throw new Error(`faults: ${r.status}`);
}

let salt = 1_742_191_300_000_000;

/**
 * A GTC create-order body signed by `who` with its dev key, as the SDKs build it: `shares` raw
 * shares of the market's YES (BUY or SELL) at `price`.
 */
export async function signedOrderBody(
  sb: SandboxHandle,
  who: ReadyAccount,
  o: { slug: string; price: number; shares: bigint; side?: 'BUY' | 'SELL' },
): Promise<Json> {
  const m = sb.ctx.state.markets.find((x) => x.slug === o.slug);
  if (!m?.positionIds || !m.venue) throw new Error(`no CLOB market ${o.slug}`);
  const side = o.side === 'SELL' ? 1 : 0;
  const usdc = (o.shares * BigInt(Math.round(o.price * 1e6))) / 1_000_000n;
  const profile = sb.ctx.state.profiles.find((p) => p.id === who.profileId);
  const wallet = new Wallet(who.privateKey);
  const order = {
    salt: salt++,
    maker: wallet.address,
    signer: wallet.address,
    taker: '0x0000000000000000000000000000000000000000',
    tokenId: m.positionIds[0],
    makerAmount: Number(side === 0 ? usdc : o.shares),
    takerAmount: Number(side === 0 ? o.shares : usdc),
    expiration: '0',
    nonce: 0,
    feeRateBps: profile?.feeRateBps ?? 300,
    side,
    signatureType: 0,
  };
  const signature = await wallet.signTypedData(
    { name: 'Limitless CTF Exchange', version: '1', chainId: 8453, verifyingContract: m.venue.exchange },
    ORDER_TYPES,
    { ...order, expiration: 0 },
  );
  return { order: { ...order, price: o.price, signature }, orderType: 'GTC', marketSlug: o.slug, ownerId: who.profileId };
}
