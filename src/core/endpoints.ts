// Where pm talks to: the REST base URL, the socket.io URL that goes with it, and whether the pair
// is a local sandbox. One rule for the CLI and the library (docs/architecture.md §1):
// - the stream URL follows the base URL unless it was given at the same or a higher precedence
//   level (flag > env > profile); the exchange's own base URL keeps its known stream URL, any
//   other derives it (same host and port, ws for http, wss for https);
// - a loopback REST URL never pairs with a remote stream URL, nor the reverse;
// - a target is a sandbox (no confirmation for orders and money) because its URL is loopback,
//   never because a stored flag says so.
import { UsageError } from './errors.js';

export const DEFAULT_BASE_URL = 'https://api.limitless.exchange';
export const DEFAULT_WS_URL = 'wss://ws.limitless.exchange';

/** Precedence levels, lowest first. */
export type Level = 'default' | 'profile' | 'env' | 'flag';
const RANK: Record<Level, number> = { default: 0, profile: 1, env: 2, flag: 3 };

export type WsSource = Level | 'derived from base-url';

export interface Given {
  level: Exclude<Level, 'default'>;
  /** Checked URL (no trailing slash). */
  url: string;
  /** How a user names it (--base-url, PM_WS_URL, the profile's ws-url), for messages. */
  name: string;
}

export interface Endpoints {
  baseUrl: string;
  baseSource: Level;
  wsUrl: string;
  wsSource: WsSource;
  /** The base URL is loopback: the embedded sandbox (or a test exchange on this machine). */
  sandbox: boolean;
  /** Set when one URL is local and the other remote: usable only to report it (doctor, config list). */
  mismatch: UsageError | undefined;
}

/**
 * Whether a URL's host is this machine: 127.0.0.0/8, localhost, ::1 or an IPv4-mapped
 * 127.x address. Judged on the parsed host (Node's URL turns [::ffff:127.0.0.1] into
 * [::ffff:7f00:1]), so spellings cannot sneak a remote host past it or a local one out.
 * @example isLoopbackUrl('http://[::ffff:127.0.0.1]:8787') // true
 */
/** How to drop a stream URL given at its level, in words: " (pm config unset ws-url)". */
function dropWith(ws: Given | undefined): string {
  if (ws?.level === 'profile') return ' (pm config unset ws-url)';
  if (ws?.level === 'env') return ' (unset PM_WS_URL)';
  return '';
}

export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  // Only the name localhost itself: a name under .localhost is left to the resolver, which may
  // send it to DNS and so to any host.
  if (host === 'localhost') return true;
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return true;
  // IPv6 hosts come back canonical and compressed: ::1, and ::ffff:7fXX:XXXX for ::ffff:127.x.y.z.
  return host === '[::1]' || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(host);
}

/** The stream URL a base URL implies: the exchange's own, or the same host and port over ws(s). */
export function deriveWsUrl(baseUrl: string): string {
  if (baseUrl.replace(/\/+$/, '') === DEFAULT_BASE_URL) return DEFAULT_WS_URL;
  const u = new URL(baseUrl);
  return `${u.protocol === 'https:' ? 'wss:' : 'ws:'}//${u.host}`;
}

/**
 * Resolves the pair from what was given at each level (the highest given base URL wins; a
 * stream URL counts only from its level or above). A local/remote mix is returned as `mismatch`
 * (exit 2 where the URLs are used: see `usableEndpoints`).
 * @example resolveEndpoints([{ level: 'flag', url: 'http://127.0.0.1:9', name: '--base-url' }], [])
 *   // { baseUrl: 'http://127.0.0.1:9', wsUrl: 'ws://127.0.0.1:9', wsSource: 'derived from base-url', … }
 */
export function resolveEndpoints(bases: Given[], streams: Given[]): Endpoints {
  const top = (list: Given[]): Given | undefined => [...list].sort((a, b) => RANK[b.level] - RANK[a.level])[0];
  const base = top(bases);
  const ws = top(streams);
  const baseUrl = base?.url ?? DEFAULT_BASE_URL;
  const baseRank = base ? RANK[base.level] : 0;
  let wsUrl: string;
  let wsSource: WsSource;
  if (ws && RANK[ws.level] >= baseRank) {
    wsUrl = ws.url;
    wsSource = ws.level;
  } else if (base) {
    wsUrl = deriveWsUrl(baseUrl);
    wsSource = 'derived from base-url';
  } else {
    wsUrl = DEFAULT_WS_URL;
    wsSource = 'default';
  }
  const localBase = isLoopbackUrl(baseUrl);
  let mismatch: UsageError | undefined;
  if (localBase !== isLoopbackUrl(wsUrl)) {
    const baseName = base?.name ?? 'the default base URL';
    const wsName = ws && wsSource !== 'derived from base-url' && wsSource !== 'default' ? ws.name : 'the stream URL';
    mismatch = new UsageError(
      `the base URL ${baseUrl} (${baseName}) is ${localBase ? 'on this machine' : 'remote'} but the stream URL ${wsUrl} (${wsName}) is ${localBase ? 'remote' : 'on this machine'}: pm will not mix a local and a remote exchange`,
      {
        hint: `Give both for the same exchange, or drop ${wsName === 'the stream URL' ? 'the ws-url' : wsName}${dropWith(ws)} so the stream URL follows the base URL (pm config list shows where each comes from).`,
      },
    );
  }
  return { baseUrl, baseSource: base?.level ?? 'default', wsUrl, wsSource, sandbox: localBase, mismatch };
}
