// Partner platforms (exchange-api.md "partner accounts"; wire-facts §4.4): sub-accounts in EOA
// mode (the child's wallet signs a single-use message from GET /auth/signing-message) or with a
// server wallet, the partner's listing, and allowance readiness of server wallets with the
// contract's recommended loop (poll, retry when needed, honour 429 retryAfterSeconds, back off
// on 409).
import type { ConfigFile, ProfileConfig, SubAccountRecord } from './config.js';
import {
  ConflictError,
  ExchangeError,
  ExchangeValidationError,
  InterruptedError,
  NetworkError,
  NotFoundError,
  type PmError,
  RateLimitError,
  UnknownStateError,
  ValidationError,
  errorMessage,
  withHint,
} from './errors.js';
import { backoffMs, sleep } from './retry.js';
import type { ApiClient } from './http.js';
import { isObj, stringField } from './wire.js';
import type { Json } from './wire.js';

/** The longest display name the exchange accepts. */
const MAX_DISPLAY_NAME = 44;

/**
 * Checks a display name before anything is sent: not blank, no control or invisible formatting
 * characters (newlines, U+202E and other bidi overrides, zero-width marks), at most 44 characters.
 */
export function checkDisplayName(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  if (name.trim() === '')
    throw new ValidationError('the display name is empty', {
      hint: 'Give a name with at least one visible character, or leave it out (the address is used).',
    });
  const bad = /[\p{Cc}\p{Cf}\u2028\u2029]/u.exec(name);
  if (bad)
    throw new ValidationError(
      `the display name holds an invisible or control character (U+${(bad[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')})`,
      { hint: 'Use letters, digits, spaces and punctuation only.' },
    );
  if ([...name].length > MAX_DISPLAY_NAME) {
    throw new ValidationError(`the display name is ${[...name].length} characters long; the exchange accepts at most ${MAX_DISPLAY_NAME}`, {
      hint: `Use at most ${MAX_DISPLAY_NAME} characters.`,
    });
  }
  return name;
}

/** A sub-account profile id from argv: a positive integer, else exit 2 before any request. */
export function parseProfileId(raw: string | undefined, what = 'profile id'): number {
  if (raw === undefined || !/^\d{1,15}$/.test(raw) || Number(raw) < 1) {
    throw new ValidationError(`${what} must be a positive integer, got "${raw ?? ''}"`, {
      hint: 'List your sub-accounts with pm partner list.',
    });
  }
  return Number(raw);
}

/** What signs the EOA proof: the child's wallet (a viem account from the keystore). */
export interface MessageSigner {
  address: `0x${string}`;
  signMessage(args: { message: string }): Promise<`0x${string}`>;
}

export interface PartnerAccount {
  profileId: number;
  account: string;
}

/** The hex the x-signing-message header carries: 0x + the UTF-8 bytes of the message. */
function messageHex(message: string): `0x${string}` {
  return `0x${Buffer.from(message, 'utf8').toString('hex')}`;
}

/**
 * The sub-account a 2xx names. A 2xx whose body is not one (cut short, not JSON) says the exchange
 * made it without saying which: an unknown outcome, never "unexpected answer" (which would read as
 * a refusal, and let the caller drop the child's key).
 */
function accountOf(res: { status: number; data: unknown }): PartnerAccount {
  const d = res.data;
  if (!isObj(d) || typeof d['profileId'] !== 'number' || typeof d['account'] !== 'string') {
    const e = new UnknownStateError(`the exchange answered ${res.status} (made) but pm could not read which sub-account`, {
      status: res.status,
    });
    e.ambiguous = true;
    throw e;
  }
  return { profileId: d['profileId'], account: d['account'] };
}

/**
 * Creates a sub-account: a server wallet (`serverWallet: true`), or an EOA whose wallet proves
 * itself by signing the exchange's single-use message with personal_sign.
 * @example await createPartnerAccount(api, { serverWallet: true, displayName: 'alice-shop' })
 */
async function createPartnerAccount(
  api: ApiClient,
  p: { serverWallet: boolean; displayName?: string | undefined; signer?: MessageSigner | undefined; signal?: AbortSignal | undefined },
): Promise<PartnerAccount> {
  const body: Json = {};
  if (p.displayName !== undefined) body['displayName'] = checkDisplayName(p.displayName);
  if (p.serverWallet) {
    body['createServerWallet'] = true;
    return accountOf(
      await api.request<unknown>({
        method: 'POST',
        path: '/profiles/partner-accounts',
        body,
        auth: 'auto',
        onBehalfOfIn: 'none',
        retry: 'rate-limit',
        signal: p.signal,
      }),
    );
  }
  if (!p.signer) throw new ValidationError('an EOA sub-account needs its wallet to sign the signing message');
  const message = (await api.request<unknown>({ method: 'GET', path: '/auth/signing-message', auth: 'none' })).data;
  if (typeof message !== 'string' || !/Nonce:/.test(message))
    throw new ExchangeError('unexpected answer from GET /auth/signing-message (want the plain-text message with a nonce)');
  const signature = await p.signer.signMessage({ message });
  const headers = { 'x-account': p.signer.address, 'x-signing-message': messageHex(message), 'x-signature': signature };
  const res = await api.request<unknown>({
    method: 'POST',
    path: '/profiles/partner-accounts',
    body,
    headers,
    auth: 'auto',
    onBehalfOfIn: 'none',
    retry: 'rate-limit',
    signal: p.signal,
  });
  return accountOf(res);
}

/** A sub-account as `pm --json partner create` prints it (and the library's partner.create returns). */
export interface SubAccountCreated {
  profileId: number;
  /** The child's address (its orders' maker). */
  account: string;
  mode: 'server-wallet' | 'eoa';
  /** The name given, else the address. */
  displayName: string;
  /**
   * How pm knows it, when not from the exchange's answer to the creation: `lookup`, the answer was
   * lost and the exchange listed the child's address among the partner's sub-accounts; `existing`,
   * the address already was one of them (a second run after an unknown outcome).
   */
  via?: 'lookup' | 'existing' | undefined;
}

/** The exact commands an unknown creation's message writes out (the CLI's own lines; the library's words by default). */
interface CreationHints {
  /** EOA: the same creation with the child's wallet, which cannot make a second sub-account. */
  again?: string | undefined;
  /** The listing to look in. */
  check?: string | undefined;
}

/** This partner's sub-account with `address`, or undefined. */
async function subAccountAt(api: ApiClient, address: string, signal: AbortSignal | undefined): Promise<PartnerAccount | undefined> {
  const list = await listPartnerAccounts(signal ? api.withSignal(signal) : api, { account: address, limit: 25 });
  const hit = list.data.find((a) => a.account.toLowerCase() === address.toLowerCase());
  return hit ? { profileId: hit.profileId, account: hit.account } : undefined;
}

/**
 * Creates a sub-account and records it at once (`record`, before anything else can fail), one
 * flow for the CLI and the library: an EOA `child` signs the signing message; when the
 * exchange refuses, a key made for it is dropped (`child.drop`).
 *
 * An answer pm cannot read (dropped after sending, a 2xx it cannot parse) never reads as a
 * failure, and the child's key is kept: an EOA child is looked up by its address (found: created,
 * `via: 'lookup'`); else, and for a server wallet (nothing identifies it before the answer), an
 * UnknownStateError says how to look and never to simply retry. An EOA whose address is already
 * one of the partner's sub-accounts (a 409) is that sub-account (`via: 'existing'`): re-running a
 * creation with the same wallet settles an unknown one without making a second.
 * @example await createSubAccount(api, { serverWallet: true, displayName: 'alice-shop', record: async () => {} })
 */
export async function createSubAccount(
  api: ApiClient,
  p: {
    serverWallet: boolean;
    displayName?: string | undefined;
    child?: { signer: MessageSigner; drop?: (() => Promise<void>) | undefined } | undefined;
    record: (made: PartnerAccount) => Promise<void>;
    signal?: AbortSignal | undefined;
    hints?: CreationHints | undefined;
  },
): Promise<SubAccountCreated> {
  const displayName = checkDisplayName(p.displayName);
  let made: PartnerAccount;
  let via: SubAccountCreated['via'];
  try {
    made = await createPartnerAccount(api, { serverWallet: p.serverWallet, displayName, signer: p.child?.signer, signal: p.signal });
  } catch (e) {
    ({ made, via } = await afterFailedCreation(api, e, p, displayName));
  }
  await p.record(made);
  return {
    ...made,
    mode: p.serverWallet ? 'server-wallet' : 'eoa',
    displayName: displayName ?? made.account,
    ...(via !== undefined ? { via } : {}),
  };
}

/**
 * What a creation that threw comes to: an EOA child found by its address after a lost answer
 * (`lookup`) or a 409 (`existing`), else the error to throw: unknown after a lost answer; a
 * refusal drops a key made for it (an interrupted or unreachable request keeps it: it may have
 * reached the exchange).
 */
async function afterFailedCreation(
  api: ApiClient,
  e: unknown,
  p: {
    child?: { signer: MessageSigner; drop?: (() => Promise<void>) | undefined } | undefined;
    signal?: AbortSignal | undefined;
    hints?: CreationHints | undefined;
  },
  displayName: string | undefined,
): Promise<{ made: PartnerAccount; via: 'lookup' | 'existing' }> {
  const lost = e instanceof NetworkError && e.ambiguous;
  const address = p.child?.signer.address;
  if (address !== undefined && (lost || e instanceof ConflictError)) {
    const found = await subAccountAt(api, address, p.signal).catch(() => undefined);
    if (found) return { made: found, via: lost ? 'lookup' : 'existing' };
  }
  if (lost) throw unknownCreation(e, { address, displayName, hints: p.hints });
  if (!(e instanceof InterruptedError) && !(e instanceof NetworkError)) await p.child?.drop?.();
  throw e;
}

/** The unknown outcome of a creation, with the exact command to settle it. */
function unknownCreation(
  e: PmError,
  o: { address: string | undefined; displayName: string | undefined; hints: CreationHints | undefined },
): UnknownStateError {
  const made = e instanceof UnknownStateError && e.status !== undefined && e.status >= 200 && e.status < 300;
  const what =
    o.address !== undefined
      ? `the sub-account for ${o.address}`
      : `the server-wallet sub-account${o.displayName !== undefined ? ` "${o.displayName}"` : ''}`;
  const check = o.hints?.check ?? 'partner.list() (every page)';
  const hint =
    o.address !== undefined
      ? `Its key is kept. Run exactly this (an address never gets a second sub-account, so it cannot make another):\n  ${
          o.hints?.again ?? 'the same partner.create call with the same privateKey'
        }`
      : `Do not create it again before you look: run exactly this\n  ${check}\n${
          o.displayName !== undefined ? `A server wallet named ${o.displayName} there` : 'A server wallet there that you do not know'
        } is this one${made ? '' : '; if there is none, it was not made and creating it again is safe'}.`;
  const err = new UnknownStateError(
    made
      ? `the exchange made ${what} but pm could not read its answer`
      : `the exchange may or may not have made ${what}: pm could not read its answer (${errorMessage(e.cause instanceof Error ? e.cause : e)})`,
    { cause: e, status: e.status, hint },
  );
  err.ambiguous = true;
  return err;
}

/**
 * Adds a sub-account to the records the signer rule reads: the profile's (`profileName`), or,
 * with no profile in use (credentials given directly), PM_HOME's records for the exchange at `baseUrl`.
 */
export function recordSubAccountIn(
  cfg: ConfigFile,
  where: { profileName: string | undefined; baseUrl: string },
  profileId: number,
  rec: { address: string; wallet?: string | undefined; serverWallet: boolean },
): void {
  const entry: SubAccountRecord = {
    address: rec.address,
    ...(rec.wallet !== undefined ? { wallet: rec.wallet } : {}),
    ...(rec.serverWallet ? { serverWallet: true } : {}),
  };
  const p = where.profileName === undefined ? undefined : cfg.profiles[where.profileName];
  if (p) p.subAccounts = { ...(p.subAccounts ?? {}), [String(profileId)]: entry };
  else
    cfg.subAccounts = {
      ...(cfg.subAccounts ?? {}),
      [where.baseUrl]: { ...(cfg.subAccounts?.[where.baseUrl] ?? {}), [String(profileId)]: entry },
    };
}

/**
 * The record pm keeps of sub-account `id`: the profile's, else (no profile in use, credentials
 * given directly) PM_HOME's for the exchange at `baseUrl`, where recordSubAccountIn put it.
 */
export function subAccountRecordOf(cfg: ConfigFile, profile: ProfileConfig, baseUrl: string, id: number): SubAccountRecord | undefined {
  return profile.subAccounts?.[String(id)] ?? cfg.subAccounts?.[baseUrl]?.[String(id)];
}

export interface PartnerAccountItem {
  profileId: number;
  account: string;
  displayName: string;
  serverWallet?: boolean | undefined;
}

export interface PartnerPage {
  data: PartnerAccountItem[];
  page: number;
  limit: number;
  hasMore: boolean;
}

/** One page of the partner's sub-accounts (`account` filters by address). */
export async function listPartnerAccounts(
  api: ApiClient,
  q: { account?: string | undefined; page?: number | undefined; limit?: number | undefined } = {},
): Promise<PartnerPage> {
  const d = (
    await api.request<unknown>({
      method: 'GET',
      path: '/profiles/partner-accounts',
      query: { account: q.account, limit: q.limit, page: q.page },
      auth: 'auto',
      onBehalfOfIn: 'none',
    })
  ).data;
  if (!isObj(d) || !Array.isArray(d['data']))
    throw new ExchangeError('unexpected answer from GET /profiles/partner-accounts (want {data, page, limit, hasMore})');
  const data = d['data'].filter(isObj).map((x) => ({
    profileId: Number(x['profileId']),
    account: String(x['account'] ?? ''),
    displayName: String(x['displayName'] ?? ''),
    ...(typeof x['serverWallet'] === 'boolean' ? { serverWallet: x['serverWallet'] } : {}),
  }));
  return {
    data,
    page: Number(d['page'] ?? q.page ?? 1),
    limit: Number(d['limit'] ?? q.limit ?? data.length),
    hasMore: d['hasMore'] === true,
  };
}

export interface AllowanceTarget {
  type: string;
  label: string;
  requiredFor: string;
  status: 'confirmed' | 'missing' | 'submitted' | 'failed' | string;
  confirmed: boolean;
  retryable: boolean;
  tokenAddress: string;
  spenderOrOperator: string;
  transactionId?: string | undefined;
  txHash?: string | undefined;
  errorCode?: string | undefined;
  errorMessage?: string | undefined;
}

export interface Allowances {
  profileId: number;
  partnerProfileId: number | null;
  chainId: number;
  walletAddress: string;
  ready: boolean;
  summary: { total: number; confirmed: number; missing: number; submitted: number; failed: number };
  targets: AllowanceTarget[];
}

function parseAllowances(d: unknown): Allowances {
  if (!isObj(d) || !Array.isArray(d['targets']) || typeof d['ready'] !== 'boolean')
    throw new ExchangeError('unexpected allowance answer (want {ready, summary, targets})');
  const sm = isObj(d['summary']) ? d['summary'] : {};
  const n = (k: string): number => (typeof sm[k] === 'number' ? sm[k] : 0);
  return {
    profileId: Number(d['profileId']),
    partnerProfileId: typeof d['partnerProfileId'] === 'number' ? d['partnerProfileId'] : null,
    chainId: Number(d['chainId'] ?? 0),
    walletAddress: String(d['walletAddress'] ?? ''),
    ready: d['ready'],
    summary: { total: n('total'), confirmed: n('confirmed'), missing: n('missing'), submitted: n('submitted'), failed: n('failed') },
    targets: d['targets'].filter(isObj).map((t) => ({
      type: String(t['type'] ?? ''),
      label: String(t['label'] ?? ''),
      requiredFor: String(t['requiredFor'] ?? ''),
      status: String(t['status'] ?? ''),
      confirmed: t['confirmed'] === true,
      retryable: t['retryable'] === true,
      tokenAddress: String(t['tokenAddress'] ?? ''),
      spenderOrOperator: String(t['spenderOrOperator'] ?? ''),
      transactionId: stringField(t, 'transactionId'),
      txHash: stringField(t, 'txHash'),
      errorCode: stringField(t, 'errorCode'),
      errorMessage: stringField(t, 'errorMessage'),
    })),
  };
}

/** The allowance readiness of a server-wallet sub-account (a live chain read). */
export async function getAllowances(api: ApiClient, profileId: number): Promise<Allowances> {
  return parseAllowances(
    (
      await api
        .request<unknown>({
          method: 'GET',
          path: `/profiles/partner-accounts/${profileId}/allowances`,
          auth: 'auto',
          onBehalfOfIn: 'none',
        })
        .catch(notYours(api))
    ).data,
  );
}

/** A 404 for a profile id: not a sub-account of this partner (or none at all); the hint says where the ids are. */
function notYours(api: ApiClient): (e: unknown) => never {
  return (e) => {
    if (e instanceof NotFoundError && !e.hint)
      throw withHint(
        e,
        `${api.words === 'flags' ? 'pm partner list' : 'partner.list()'} lists the profile ids of your sub-accounts (with the partner's token).`,
      );
    throw e;
  };
}

/** Asks the exchange to submit the targets still missing (or failed and retryable). */
export async function retryAllowances(api: ApiClient, profileId: number): Promise<Allowances> {
  return parseAllowances(
    (
      await api
        .request<unknown>({
          method: 'POST',
          path: `/profiles/partner-accounts/${profileId}/allowances/retry`,
          body: {},
          auth: 'auto',
          onBehalfOfIn: 'none',
          retry: 'never',
        })
        .catch(notYours(api))
    ).data,
  );
}

/** Targets the retry endpoint may attempt. */
export function needsRetry(a: Allowances): boolean {
  return a.targets.some((t) => t.status === 'missing' || (t.status === 'failed' && t.retryable));
}

export type WaitEvent =
  | { kind: 'status'; allowances: Allowances }
  | { kind: 'retried'; allowances: Allowances }
  | { kind: 'locked'; waitMs: number; message: string }
  | { kind: 'throttled'; retryAfterSeconds: number; message: string };

/**
 * The contract's loop: poll; if ready, done; if targets are missing or failed-and-retryable,
 * retry (waiting out a 429's retryAfterSeconds, backing off on a 409); poll again shortly.
 * Throws RateLimitError (exit 6) when the wait the exchange asks for runs past the deadline,
 * NetworkError (exit 7) at the deadline, ExchangeValidationError when a target failed for good.
 * @example await waitForAllowances(api, 2001, { retry: true, timeoutMs: 120_000 })
 */
export async function waitForAllowances(
  api: ApiClient,
  profileId: number,
  o: {
    retry: boolean;
    timeoutMs: number;
    pollMs?: number | undefined;
    signal?: AbortSignal | undefined;
    onEvent?: ((e: WaitEvent) => void) | undefined;
  },
): Promise<Allowances> {
  const deadline = Date.now() + o.timeoutMs;
  const poll = o.pollMs ?? 500;
  let nextRetryAt = 0;
  // 409s in a row (the exchange's lock held by another retry), for the one backoff schedule.
  let locked = 0;
  let lastThrottle: number | null = null;
  for (;;) {
    const a = await getAllowances(api, profileId);
    o.onEvent?.({ kind: 'status', allowances: a });
    if (a.ready) return a;
    const dead = a.targets.find((t) => t.status === 'failed' && !t.retryable);
    if (dead) {
      throw new ExchangeValidationError(
        `allowance ${dead.label} failed and cannot be retried (${dead.errorCode ?? 'no error code'}${dead.errorMessage ? `: ${dead.errorMessage}` : ''})`,
        {
          hint: "The exchange will not retry it: contact the exchange with the child's profile id and the error code.",
        },
      );
    }
    if (o.retry && needsRetry(a) && Date.now() >= nextRetryAt) {
      try {
        const r = await retryAllowances(api, profileId);
        locked = 0;
        lastThrottle = null;
        o.onEvent?.({ kind: 'retried', allowances: r });
        if (r.ready) return r;
      } catch (e) {
        if (e instanceof RateLimitError) {
          const secs = Math.max(1, Math.ceil((e.retryAfterMs ?? 1000) / 1000));
          lastThrottle = secs;
          nextRetryAt = Date.now() + secs * 1000;
          o.onEvent?.({ kind: 'throttled', retryAfterSeconds: secs, message: e.shortMessage });
          if (nextRetryAt > deadline) {
            const err = new RateLimitError(
              `allowance retry is rate limited: the exchange asked to wait ${secs} s, past the ${Math.round(o.timeoutMs / 1000)} s timeout`,
              {
                status: 429,
                hint: `Run pm partner allowances ${profileId} --retry --wait again in ${secs} s, or pass a longer --wait-timeout.`,
              },
            );
            err.retryAfterMs = secs * 1000;
            throw err;
          }
        } else if (e instanceof ConflictError) {
          const waitMs = backoffMs(locked++, Math.random, { baseMs: 250, capMs: 4000 });
          nextRetryAt = Date.now() + waitMs;
          o.onEvent?.({ kind: 'locked', waitMs, message: e.shortMessage });
        } else throw e;
      }
    }
    const now = Date.now();
    if (now >= deadline) break;
    await sleep(Math.min(poll, deadline - now), o.signal ?? api.signal);
    if (Date.now() >= deadline) {
      // One last read: it may have confirmed during the sleep.
      const last = await getAllowances(api, profileId);
      o.onEvent?.({ kind: 'status', allowances: last });
      if (last.ready) return last;
      break;
    }
  }
  if (lastThrottle !== null && nextRetryAt > deadline) {
    const err = new RateLimitError(`allowance retry is rate limited: the exchange asked to wait ${lastThrottle} s`, { status: 429 });
    err.retryAfterMs = lastThrottle * 1000;
    throw err;
  }
  throw new NetworkError(`the allowances of profile ${profileId} were not ready within ${Math.round(o.timeoutMs / 1000)} s`, {
    hint: `Run pm partner allowances ${profileId} --retry --wait again, or pass a longer --wait-timeout.`,
  });
}
