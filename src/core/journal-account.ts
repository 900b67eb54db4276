// Whose entry a journal line is. The journals under PM_HOME (orders, withdrawals, redemptions) are
// the home's, shared by every account and exchange a user points pm at, so each entry records the
// account it was written for and an entry of another account or exchange never counts: not as
// "already placed", not as an open withdrawal blocking its twin.
import { isLoopbackUrl } from './endpoints.js';

/** The account an entry belongs to. */
export interface AccountKey {
  /** The exchange, as exchangeId() spells it (one spelling per exchange, whatever the URL's). */
  exchange: string;
  /** The caller's profile id as the exchange reports it (null: not known when written). */
  profileId: number | null;
  /** The sub-account acted for (null: the caller's own profile). */
  onBehalfOf: number | null;
}

/**
 * One spelling per exchange: scheme, host and port, with the host's spellings folded. Every
 * loopback address (127.0.0.1, localhost, [::1], [::ffff:127.0.0.1]…) is this machine; an
 * IPv4-mapped IPv6 address is its IPv4 address; a name is lowercase without a trailing dot; the
 * default port is written out.
 * @example exchangeId('http://[::ffff:127.0.0.1]:8787') === exchangeId('http://localhost:8787') // 'http://loopback:8787'
 */
export function exchangeId(baseUrl: string): string {
  let u: URL;
  try {
    u = new URL(baseUrl);
  } catch {
    return baseUrl;
  }
  let host = u.hostname.toLowerCase().replace(/\.$/, '');
  if (isLoopbackUrl(baseUrl)) host = 'loopback';
  else {
    const mapped = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/.exec(host);
    if (mapped) {
      const hi = Number.parseInt(mapped[1] ?? '0', 16);
      const lo = Number.parseInt(mapped[2] ?? '0', 16);
      host = [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
    }
  }
  const port = u.port || (u.protocol === 'https:' ? '443' : '80');
  return `${u.protocol}//${host}:${port}`;
}

/**
 * Whether an entry's account is this one: the same exchange, the same sub-account, and the same
 * caller where both know it (an entry that does not know its profile id counts for every profile
 * of its exchange: a guard errs on the side of blocking).
 */
export function sameAccount(entry: AccountKey, now: AccountKey): boolean {
  return (
    entry.exchange === now.exchange &&
    entry.onBehalfOf === now.onBehalfOf &&
    (entry.profileId === null || now.profileId === null || entry.profileId === now.profileId)
  );
}
