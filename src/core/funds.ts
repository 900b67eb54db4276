// Moving money: withdraw from a server wallet, the withdrawal-address allowlist, redeem.
// Amounts are bigint raw units from parse to wire: "12.5" → 12500000n → "12500000".
import { checksumAddress } from './address.js';
import { ConflictError, ExchangeError, NetworkError, NotFoundError, UnknownStateError, ValidationError, withHint } from './errors.js';
import type { ApiClient } from './http.js';
import { isObj, stringField } from './wire.js';
import type { Json } from './wire.js';
import { DECIMALS, fraction } from './money.js';

export const USDC_ADDRESS = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const MAX_UINT256 = (1n << 256n) - 1n;

/**
 * Parses a user's decimal amount (USDC) into raw units exactly, refusing what is not a plain
 * positive decimal with at most 6 places, with the nearest valid form in the hint.
 * @example parseAmount('0.000001') === 1n; parseAmount('1000000000') === 1000000000000000n
 */
export function parseAmount(input: string, decimals = DECIMALS): bigint {
  const s = input.trim();
  const bad = (why: string, hint: string): ValidationError => new ValidationError(`amount "${input}" ${why}`, { hint });
  if (/^-/.test(s)) throw bad('is negative', `use a positive amount such as ${s.slice(1) || '1'}`);
  if (/e/i.test(s)) {
    const n = Number(s);
    throw bad(
      'uses exponent notation',
      Number.isFinite(n) && n > 0 ? `write it out: ${BigInt(Math.round(n)).toString()}` : 'write it as a plain decimal such as 1000',
    );
  }
  if (s.includes(',')) throw bad('contains a comma', `no thousands separators; the decimal point is a dot: ${s.replace(/,/g, '')}`);
  const m = /^(\d*)(?:\.(\d*))?$/.exec(s);
  if (!m || s === '' || s === '.' || (m[1] === '' && (m[2] ?? '') === '')) throw bad('is not a decimal number', 'for example 12.5');
  const frac = fraction(m[2], decimals);
  if (frac.length > decimals) {
    const cut = BigInt(m[1] || '0') * 10n ** BigInt(decimals) + BigInt(frac.slice(0, decimals));
    // (Rounded down to nothing, the nearest valid amount is the smallest unit.)
    const near = cut === 0n ? `0.${'0'.repeat(decimals - 1)}1` : `${m[1] || '0'}.${frac.slice(0, decimals)}`;
    throw bad(`has more than ${decimals} decimal places`, `the smallest unit is 0.${'0'.repeat(decimals - 1)}1; nearest valid: ${near}`);
  }
  const raw = BigInt(m[1] || '0') * 10n ** BigInt(decimals) + BigInt((frac + '0'.repeat(decimals)).slice(0, decimals) || '0');
  if (raw === 0n) throw bad('is zero', `the smallest amount is 0.${'0'.repeat(decimals - 1)}1`);
  if (raw > MAX_UINT256) throw bad('is larger than 2^256-1 raw units', 'use a smaller amount');
  return raw;
}

/** A checksummed address, or exit 2 saying why (not an address, or a bad EIP-55 checksum). */
export function parseAddress(input: string, what = 'address'): `0x${string}` {
  const s = input.trim();
  if (!/^0x[0-9a-fA-F]{40}$/.test(s))
    throw new ValidationError(`${what} "${input}" is not an address`, { hint: 'an address is 0x followed by 40 hex digits' });
  // (EIP-55: all lowercase or all uppercase hex carries no checksum.)
  if (s.slice(2) !== s.slice(2).toUpperCase() && s.slice(2) !== s.slice(2).toLowerCase() && checksumAddress(s) !== s)
    throw new ValidationError(`${what} ${s} fails its EIP-55 checksum (a typo?)`, {
      hint: 'check the address, or give it all lowercase to skip the checksum',
    });
  return checksumAddress(s);
}

export interface WithdrawBody {
  amount: string;
  token?: string;
  destination?: string;
}

export interface WithdrawResult {
  hash: string;
  userOperationHash: string;
  transactionId: string;
  walletAddress: string;
  token: string;
  destination: string;
  amount: string;
}

/** The exact withdraw body (only the fields that are set; onBehalfOf comes from the client). */
export function withdrawBody(amount: bigint, o: { token?: string | undefined; destination?: string | undefined } = {}): WithdrawBody {
  const b: WithdrawBody = { amount: amount.toString() };
  if (o.token !== undefined) b.token = o.token;
  if (o.destination !== undefined) b.destination = o.destination;
  return b;
}

/**
 * A 2xx answer to a money write whose body is not the success it must be (cut short, not JSON,
 * another shape): the exchange may well have acted, so the outcome is unknown (an ambiguous
 * NetworkError, exit 7), never a failure and never a success.
 */
function unreadable(route: string, status: number, why: string): NetworkError {
  const e = new NetworkError(`the exchange answered ${route} with HTTP ${status}, but pm cannot read the answer (${why})`, {
    status,
  });
  e.ambiguous = true;
  return e;
}

/** A string field of an answer, '' when absent or not a string. */
const str = (o: Json, k: string): string => stringField(o, k) ?? '';

/**
 * A money write's 2xx answer as a transaction: an object naming one (hash, user operation or
 * transaction id), its other fields kept as sent (the sandbox's profileId…); else unreadable.
 */
function transactionAnswer(
  route: string,
  r: { status: number; data: unknown },
): Record<string, unknown> & Pick<WithdrawResult, 'hash' | 'userOperationHash' | 'transactionId' | 'walletAddress'> {
  const d = r.data;
  if (!isObj(d)) throw unreadable(route, r.status, typeof d === 'string' ? 'not JSON: cut short?' : 'not an object');
  if (typeof d['transactionId'] !== 'string' && typeof d['userOperationHash'] !== 'string' && typeof d['hash'] !== 'string')
    throw unreadable(route, r.status, 'no transaction');
  return {
    ...d,
    hash: str(d, 'hash'),
    userOperationHash: str(d, 'userOperationHash'),
    transactionId: str(d, 'transactionId'),
    walletAddress: str(d, 'walletAddress'),
  };
}

/** POST /portfolio/withdraw (sent once: a write; a 429, which the exchange did not act on, is waited out). */
export async function withdraw(api: ApiClient, body: WithdrawBody): Promise<WithdrawResult> {
  const route = 'POST /portfolio/withdraw';
  const r = await api.request<unknown>({
    method: 'POST',
    path: '/portfolio/withdraw',
    body,
    auth: 'auto',
    onBehalfOfIn: 'body',
    retry: 'rate-limit',
  });
  const t = transactionAnswer(route, r);
  const amount = t['amount'];
  if (typeof amount !== 'string' || !/^\d+$/.test(amount)) throw unreadable(route, r.status, 'no amount');
  return {
    ...t,
    token: str(t, 'token'),
    destination: str(t, 'destination'),
    amount,
  };
}

export interface AllowlistEntry {
  id: string;
  profileId: number;
  destinationAddress: string;
  label: string;
  createdAt: string;
  deletedAt: string | null;
}

/** One allowlist entry from the exchange's answer (checked field by field). */
function allowlistEntry(d: unknown): AllowlistEntry {
  if (!isObj(d) || typeof d['destinationAddress'] !== 'string' || (typeof d['id'] !== 'string' && typeof d['id'] !== 'number'))
    throw new ExchangeError('unexpected withdrawal-address entry (want {id, destinationAddress, label, createdAt, deletedAt})');
  return {
    id: String(d['id']),
    profileId: Number(d['profileId']),
    destinationAddress: d['destinationAddress'],
    label: typeof d['label'] === 'string' ? d['label'] : '',
    createdAt: typeof d['createdAt'] === 'string' ? d['createdAt'] : '',
    deletedAt: typeof d['deletedAt'] === 'string' ? d['deletedAt'] : null,
  };
}

/**
 * Allows withdrawals to `address` (identity token); an address already allowed is a ConflictError
 * (exit 5). An answer pm cannot read is an UnknownStateError whose hint is `again` (the CLI's own
 * line): running it again is safe, an address is allowed once.
 */
export async function addWithdrawalAddress(
  api: ApiClient,
  address: string,
  label?: string,
  o: { again?: string | undefined } = {},
): Promise<AllowlistEntry> {
  const body: Record<string, string> = { address };
  if (label !== undefined) body['label'] = label;
  try {
    return allowlistEntry(
      (await api.request<unknown>({ method: 'POST', path: '/portfolio/withdrawal-addresses', body, auth: 'identity', retry: 'never' }))
        .data,
    );
  } catch (e) {
    if (e instanceof ConflictError)
      throw new ConflictError(e.shortMessage, {
        status: 409,
        hint: `It is already allowed: ${api.words === 'flags' ? 'pm withdrawal-address list' : 'pm.funds.allowlist.list()'}`,
      });
    if (e instanceof NetworkError && e.ambiguous) {
      const err = new UnknownStateError(`${address} may or may not be on the withdrawal allowlist now: pm could not read the answer`, {
        cause: e,
        status: e.status,
        hint: `Run exactly this (an address is allowed once: "already allowed" means this one went through):\n  ${o.again ?? 'the same call'}`,
      });
      err.ambiguous = true;
      throw err;
    }
    throw e;
  }
}

/** What a remove did: `alreadyRemoved` when the address was gone already, with when it went. */
export interface AllowlistRemoval {
  removed: string;
  alreadyRemoved?: true;
  removedAt?: string;
}

/**
 * Removes `address` from the allowlist (identity token). An answer pm cannot read is an
 * UnknownStateError whose hint is `again` (the CLI's own line): running it again is safe, and
 * converges: when the exchange says the address is not on the allowlist, the allowlist's removed
 * entries (GET …?includeDeleted=true) say whether and when it was removed, and then the remove is
 * reported done already (`alreadyRemoved`, `removedAt`); an address never on it (or a list pm
 * cannot read) stays a NotFoundError (exit 4).
 */
export async function removeWithdrawalAddress(
  api: ApiClient,
  address: string,
  o: { again?: string | undefined } = {},
): Promise<AllowlistRemoval> {
  try {
    await api.request({
      method: 'DELETE',
      path: `/portfolio/withdrawal-addresses/${encodeURIComponent(address)}`,
      auth: 'identity',
      retry: 'never',
    });
    return { removed: address };
  } catch (e) {
    if (e instanceof NetworkError && e.ambiguous) {
      const err = new UnknownStateError(`${address} may or may not be off the withdrawal allowlist now: pm could not read the answer`, {
        cause: e,
        status: e.status,
        hint: `Run exactly this (an address is removed once: if this one went through, it says "already removed" and when):\n  ${o.again ?? 'the same call'}`,
      });
      err.ambiguous = true;
      throw err;
    }
    if (e instanceof NotFoundError) {
      const removedAt = await listWithdrawalAddresses(api, true).then(
        (list) =>
          list
            .filter((x) => x.deletedAt !== null && x.destinationAddress.toLowerCase() === address.toLowerCase())
            .map((x) => x.deletedAt ?? '')
            .sort()
            .at(-1),
        () => undefined,
      );
      if (removedAt) return { removed: address, alreadyRemoved: true, removedAt };
      throw withHint(
        e,
        api.words === 'flags'
          ? 'pm withdrawal-address list shows the addresses allowed now (--all: with the removed ones).'
          : 'pm.funds.allowlist.list() shows the addresses allowed now ({ all: true }: with the removed ones).',
      );
    }
    throw e;
  }
}

/** The allowlist (a sandbox route: the exchange's docs show no list endpoint). */
export async function listWithdrawalAddresses(api: ApiClient, includeDeleted = false): Promise<AllowlistEntry[]> {
  const r = await api.request<unknown>({
    method: 'GET',
    path: '/portfolio/withdrawal-addresses',
    query: includeDeleted ? { includeDeleted: 'true' } : undefined,
    auth: 'identity',
  });
  if (!Array.isArray(r.data)) throw new ExchangeError('unexpected answer from GET /portfolio/withdrawal-addresses (want a list)');
  return r.data.map(allowlistEntry);
}

export interface RedeemResult {
  hash: string;
  userOperationHash: string;
  transactionId: string;
  walletAddress: string;
  conditionId: string;
  marketId: number;
  payout?: string;
  sharesRedeemed?: string;
}

/** POST /portfolio/redeem {conditionId} (onBehalfOf comes from the client; an unreadable 2xx is unknown, as for withdraw). */
export async function redeem(api: ApiClient, conditionId: string): Promise<RedeemResult> {
  const route = 'POST /portfolio/redeem';
  const r = await api.request<unknown>({
    method: 'POST',
    path: '/portfolio/redeem',
    body: { conditionId },
    auth: 'auto',
    onBehalfOfIn: 'body',
    retry: 'rate-limit',
  });
  const d = transactionAnswer(route, r);
  const raw = (k: string): string | undefined => {
    const v = d[k];
    if (v === undefined || v === null) return undefined;
    if (typeof v === 'string' && /^\d+$/.test(v)) return v;
    throw unreadable(route, r.status, `${k} is not raw units`);
  };
  const marketId = d['marketId'];
  const payout = raw('payout');
  const sharesRedeemed = raw('sharesRedeemed');
  return {
    ...d,
    conditionId: str(d, 'conditionId') || conditionId,
    marketId: typeof marketId === 'number' ? marketId : 0,
    ...(payout !== undefined ? { payout } : {}),
    ...(sharesRedeemed !== undefined ? { sharesRedeemed } : {}),
  };
}
