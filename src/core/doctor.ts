// `pm doctor`: checks that explain themselves, each with a fix. Every check is independent and
// never throws: it returns pass, fail or skip (skip = not configured, so nothing to check).
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { nodeFetch } from './http.js';
import type { ApiClient } from './http.js';
import { PmError } from './errors.js';
import { proxyAuthError, proxyFor, proxyHint } from './proxy.js';
import type { ProxyRoute, ProxySettings } from './proxy.js';
import { streamAgent } from './stream.js';

/** `warn`: works, but worth changing (the fix says how); only `fail` fails the doctor. */
export type CheckStatus = 'pass' | 'warn' | 'fail' | 'skip';

export interface CheckResult {
  name: string;
  status: CheckStatus;
  /** What was found, in one line. */
  detail: string;
  /** What to do about a failure. */
  fix?: string;
  /** Measured figures (latency, skew…). */
  data?: Record<string, unknown>;
}

/**
 * When each Node major line pm runs on reaches its end of life (nodejs.org's release schedule):
 * past it, no security fixes.
 */
export const NODE_END_OF_LIFE: Readonly<Record<number, string>> = {
  20: '2026-04-30',
  21: '2024-06-01',
  22: '2027-04-30',
  23: '2025-06-01',
  24: '2028-04-30',
  25: '2026-06-01',
  26: '2029-04-30',
};

/** What NODE_EXTRA_CA_CERTS adds to every pm command on Node 20, which reads it at start-up (Node 24 reads it when TLS needs it). */
export const EXTRA_CA_COST_MS = 90;

/**
 * Node 20.19 or later (package.json engines); a note (`warn`, not a failure) for a Node past its
 * end of life, and for NODE_EXTRA_CA_CERTS on Node 20, which costs every command start-up time.
 * @example checkNode('20.20.0', new Date('2026-11-28'), undefined).status // 'warn'
 */
export function checkNode(version: string, now: Date, extraCaCerts: string | undefined): CheckResult {
  const [maj = 0, min = 0] = version.split('.').map(Number);
  if (!(maj > 20 || (maj === 20 && min >= 19)))
    return {
      name: 'node',
      status: 'fail',
      detail: `Node ${version} is older than 20.19`,
      fix: 'Install Node 24 LTS (https://nodejs.org); pm runs on 20.19 and later.',
    };
  const notes: string[] = [];
  const data: Record<string, unknown> = {};
  const eol = NODE_END_OF_LIFE[maj];
  if (eol !== undefined && now.getTime() >= Date.parse(`${eol}T00:00:00Z`)) {
    notes.push(`Node ${maj} reached its end of life on ${eol} (no more security fixes)`);
    data['endOfLife'] = eol;
  }
  if (maj === 20 && extraCaCerts !== undefined) {
    notes.push(`NODE_EXTRA_CA_CERTS is set: Node 20 reads it at every start, ~${EXTRA_CA_COST_MS} ms added to each pm command`);
    data['extraCaCostMs'] = EXTRA_CA_COST_MS;
  }
  if (notes.length === 0) return { name: 'node', status: 'pass', detail: `Node ${version}` };
  return {
    name: 'node',
    status: 'warn',
    detail: `Node ${version}: ${notes.join('; ')}`,
    fix: `Install Node 24 LTS (https://nodejs.org): supported until ${NODE_END_OF_LIFE[24] ?? ''}, and it reads NODE_EXTRA_CA_CERTS only when a TLS connection needs it.`,
    data,
  };
}

/**
 * PM_HOME is a directory only its owner can read. One not created yet is no failure: pm creates it
 * on first use, and credentials from the environment (`credentialsFromEnv`) need no pm init.
 * @example checkHome('/nonexistent', true).status // 'skip'
 */
export function checkHome(home: string, credentialsFromEnv = false): CheckResult {
  let st;
  try {
    st = statSync(home);
  } catch {
    return {
      name: 'home',
      status: 'skip',
      detail: `${home} not created yet: pm creates it on first use${credentialsFromEnv ? '' : ' (pm init, or pm sandbox start, sets pm up)'}`,
    };
  }
  if (!st.isDirectory())
    return {
      name: 'home',
      status: 'fail',
      detail: `${home} is not a directory`,
      fix: `Move it away and run pm init: mv ${home} ${home}.bak`,
    };
  if (process.platform !== 'win32' && (st.mode & 0o077) !== 0) {
    return {
      name: 'home',
      status: 'fail',
      detail: `${home} is readable by others (mode ${(st.mode & 0o777).toString(8)})`,
      fix: `chmod 700 ${home}`,
    };
  }
  return { name: 'home', status: 'pass', detail: `${home} (mode 700)` };
}

/** Runs one check, turning any error into a failure with the error's own hint. */
export async function guarded(name: string, run: () => Promise<CheckResult>, fix?: string): Promise<CheckResult> {
  try {
    return await run();
  } catch (e) {
    const pe = e instanceof PmError ? e : undefined;
    const f = pe?.hint ?? fix;
    return {
      name,
      status: 'fail',
      detail: pe?.shortMessage ?? (e instanceof Error ? e.message : String(e)),
      ...(f !== undefined ? { fix: f } : {}),
    };
  }
}

/** What the keystore check needs: every encrypted file opened with the passphrase (src/keystore/store.ts). */
export interface KeystoreFiles {
  checkFiles(passphrase: string, onChecked?: (f: CheckedFile) => void): Promise<CheckedFile[]>;
}

/** One encrypted file as the keystore check found it. */
export interface CheckedFile {
  kind: 'wallet' | 'secrets';
  name: string;
  path: string;
  problem?: string;
  wrongPassphrase?: boolean;
}

/**
 * Every wallet and secrets file opens with the passphrase; a damaged one is named with its path.
 * `onChecked` hears of each file as it is done (the CLI's progress on a terminal).
 */
export async function checkKeystore(ks: KeystoreFiles, passphrase: string, onChecked?: (f: CheckedFile) => void): Promise<CheckResult> {
  const files = await ks.checkFiles(passphrase, onChecked);
  const bad = files.filter((f) => f.problem !== undefined);
  const first = bad[0];
  if (first === undefined)
    return { name: 'keystore', status: 'pass', detail: `${files.length} encrypted file(s) open with the passphrase` };
  if (bad.length === files.length && bad.every((f) => f.wrongPassphrase))
    return {
      name: 'keystore',
      status: 'fail',
      detail: 'the passphrase does not open the keystore',
      fix: 'Check --passphrase-file / PM_PASSPHRASE (pm wallet passphrase changes it).',
    };
  const restore =
    first.kind === 'wallet'
      ? `import the wallet again (pm wallet import ${first.name}) or restore the file from a backup`
      : 'add the token again (pm token add) or restore the file from a backup';
  return {
    name: 'keystore',
    status: 'fail',
    detail: `${bad.length} of ${files.length} encrypted file(s) do not open: ${bad.map((f) => `${f.path} (${f.problem})`).join('; ')}`,
    fix: first.wrongPassphrase
      ? `${first.path} is under another passphrase: pm keeps one for the whole keystore; move it aside (mv ${first.path} ${first.path}.other) or ${restore}.`
      : `Move it aside (mv ${first.path} ${first.path}.damaged) and ${restore}.`,
    data: { files: bad.map((f) => ({ path: f.path, kind: f.kind, name: f.name, problem: f.problem })) },
  };
}

/** HMAC signatures are accepted within ±30 s of the exchange's clock; warn well before that. */
const MAX_SKEW_MS = 10_000;

/**
 * Reachability, latency and clock skew from one public request (the skew from the answer's
 * Date header, against the middle of the round trip; Date has whole seconds, so ±1 s).
 */
export async function checkExchange(api: ApiClient): Promise<{ reach: CheckResult; clock: CheckResult }> {
  const t0 = Date.now();
  const r = await api.request<unknown>({ method: 'GET', path: '/maintenance/status', retry: 'never' });
  const t1 = Date.now();
  const latencyMs = t1 - t0;
  const reach: CheckResult = {
    name: 'exchange',
    status: 'pass',
    detail: `${api.baseUrl} answered in ${latencyMs} ms`,
    data: { latencyMs },
  };
  const date = Date.parse(r.headers['date'] ?? '');
  if (!Number.isFinite(date)) return { reach, clock: { name: 'clock', status: 'skip', detail: 'the exchange sent no Date header' } };
  const skewMs = date + 500 - (t0 + t1) / 2;
  const abs = Math.abs(skewMs);
  const clock: CheckResult =
    abs <= MAX_SKEW_MS
      ? {
          name: 'clock',
          status: 'pass',
          detail: `within ${Math.max(1, Math.round(abs / 1000))} s of the exchange`,
          data: { skewMs: Math.round(skewMs) },
        }
      : {
          name: 'clock',
          status: 'fail',
          detail: `this clock is ${Math.round(abs / 1000)} s ${skewMs > 0 ? 'behind' : 'ahead of'} the exchange's; signed requests are refused beyond ±30 s`,
          fix: 'Synchronise the system clock (timedatectl set-ntp true, or your OS time settings).',
          data: { skewMs: Math.round(skewMs) },
        };
  return { reach, clock };
}

/** Which proxy REST and the stream go through (HTTPS_PROXY, HTTP_PROXY, NO_PROXY), never its credentials. */
export function checkProxy(baseUrl: string, wsUrl: string, proxy: ProxySettings, rpcUrl?: string | undefined): CheckResult {
  const rest = proxyFor(baseUrl, proxy);
  const stream = proxyFor(wsUrl, proxy);
  const rpc = rpcUrl === undefined ? undefined : proxyFor(rpcUrl, proxy);
  if (proxy.httpsProxy === undefined && proxy.httpProxy === undefined)
    return { name: 'proxy', status: 'skip', detail: 'none set (HTTPS_PROXY, HTTP_PROXY)' };
  const via = (r: ProxyRoute | undefined): string => (r ? `through ${r.shown} (${r.variable})` : 'direct');
  return {
    name: 'proxy',
    status: 'pass',
    detail: `REST ${via(rest)}, stream ${via(stream)}${rpcUrl === undefined ? '' : `, RPC ${via(rpc)}`}${proxy.noProxy !== undefined ? `; NO_PROXY=${proxy.noProxy}` : ''}`,
    data: { rest: rest?.shown ?? null, stream: stream?.shown ?? null, ...(rpcUrl === undefined ? {} : { rpc: rpc?.shown ?? null }) },
  };
}

/** A socket.io handshake on the /markets namespace, through the proxy that applies to it. */
export async function checkWebsocket(wsUrl: string, timeoutMs = 5000, proxy?: ProxySettings): Promise<CheckResult> {
  const url = `${wsUrl.replace(/\/+$/, '')}/markets`;
  let proxyStatus = 200;
  const viaProxy = await streamAgent(url, proxy, (status) => {
    proxyStatus = status;
  });
  const through = viaProxy ? ` through the proxy ${viaProxy.route.shown}` : '';
  const { io } = await import('socket.io-client');
  const t0 = Date.now();
  // (socket.io's types say a string; engine.io hands the object to ws, which uses it as its agent.)
  const agentOption: Record<string, unknown> = viaProxy ? { agent: viaProxy.agent } : {};
  const socket = io(url, {
    ...agentOption,
    transports: ['websocket'],
    reconnection: false,
    timeout: timeoutMs,
    forceNew: true,
  });
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', (e: Error) => reject(e));
    });
    return {
      name: 'websocket',
      status: 'pass',
      detail: `socket.io ${url} connected in ${Date.now() - t0} ms${through}`,
      ...(viaProxy ? { data: { proxy: viaProxy.route.shown } } : {}),
    };
  } catch (e) {
    const refusedByProxy = viaProxy && proxyStatus !== 200;
    const denied = viaProxy && proxyStatus === 407 ? proxyAuthError(viaProxy.route) : undefined;
    return {
      name: 'websocket',
      status: 'fail',
      detail: refusedByProxy
        ? `socket.io ${url}: the proxy ${viaProxy.route.shown} answered ${proxyStatus}${denied ? ' (it asks for credentials)' : ''}`
        : `socket.io ${url}${through}: ${e instanceof Error ? e.message : String(e)}`,
      fix:
        denied?.hint ??
        (viaProxy
          ? proxyHint(viaProxy.route, url)
          : 'Check --ws-url / PM_WS_URL / pm config set ws-url, and that a proxy lets websockets through.'),
    };
  } finally {
    socket.close();
    viaProxy?.agent.destroy();
  }
}

/** eth_chainId over JSON-RPC (through the proxy that applies to it); Base mainnet is 8453. */
export async function checkRpc(rpcUrl: string, proxy?: ProxySettings, expected = 8453, timeoutMs = 5000): Promise<CheckResult> {
  let res: Response;
  try {
    res = await nodeFetch(rpcUrl, proxy)(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (e) {
    if (e instanceof PmError) throw e;
    // (node:http's errors carry the socket's code: ECONNREFUSED, ENOTFOUND…)
    const code = (e as NodeJS.ErrnoException).code;
    throw new PmError(`cannot reach the RPC at ${rpcUrl}${code === undefined ? '' : ` (${code})`}`, { cause: e });
  }
  const body = (await res.json()) as { result?: unknown };
  const id = typeof body.result === 'string' ? Number.parseInt(body.result, 16) : NaN;
  if (id === expected) return { name: 'rpc', status: 'pass', detail: `${rpcUrl}: chain id ${id}` };
  return {
    name: 'rpc',
    status: 'fail',
    detail: `${rpcUrl}: chain id ${Number.isNaN(id) ? 'unknown' : id}, expected ${expected}`,
    fix: 'Point rpc-url at a Base node: pm config set rpc-url https://…',
  };
}

/** Where the journal lives under PM_HOME. */
export const journalDir = (home: string): string => join(home, 'journal');
