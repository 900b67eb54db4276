// Which proxy a connection goes through: the rule of HTTPS_PROXY / HTTP_PROXY / NO_PROXY as curl,
// npm and gh read them, written once and pure (the CLI reads the variables in src/cli/env.ts, the
// library takes them from its caller or the environment; core receives the resolved settings).
//
// - An https:// or wss:// target uses `httpsProxy`, an http:// or ws:// one `httpProxy` (no
//   fallback from one to the other, as curl and Go).
// - `noProxy` lists hosts reached directly, separated by commas or spaces: `*` (every host),
//   `example.com` or `.example.com` or `*.example.com` (that domain and every name below it),
//   `host:port` (that port only), an IP address, or an IPv4 block such as `10.0.0.0/8`.
// - Loopback is not exempt by itself: a sandbox on 127.0.0.1 goes through the proxy unless
//   `noProxy` names it (NO_PROXY=127.0.0.1,localhost), as curl does.
// - A proxy URL without a scheme is http://; credentials in it (http://user:pass@host:port) are
//   sent to the proxy only, and never shown (`shown` has scheme, host and port).
import { isIP, isIPv4 } from 'node:net';
import { AuthError, UsageError } from './errors.js';

export interface ProxySettings {
  /** The proxy for https:// and wss:// targets (HTTPS_PROXY). */
  httpsProxy?: string | undefined;
  /** The proxy for http:// and ws:// targets (HTTP_PROXY). */
  httpProxy?: string | undefined;
  /** Hosts reached directly (NO_PROXY). */
  noProxy?: string | undefined;
}

/**
 * The settings an environment gives: HTTPS_PROXY, HTTP_PROXY and NO_PROXY, the lower-case
 * spelling winning when both are set (as curl, npm and Node read them); empty is unset.
 * @example proxyFromEnvironment(process.env)
 */
export function proxyFromEnvironment(env: Record<string, string | undefined>): ProxySettings {
  const read = (name: string): string | undefined => env[name.toLowerCase()] || env[name] || undefined;
  return { httpsProxy: read('HTTPS_PROXY'), httpProxy: read('HTTP_PROXY'), noProxy: read('NO_PROXY') };
}

export interface ProxyRoute {
  /** The proxy's URL, credentials included (for the agent only). */
  url: URL;
  /** scheme://host:port: what pm prints. */
  shown: string;
  /** The variable it comes from (hints name it). */
  variable: 'HTTPS_PROXY' | 'HTTP_PROXY';
}

/** A proxy URL as pm prints it: scheme, host and port, never credentials. */
function shownProxy(u: URL): string {
  return `${u.protocol}//${u.host}`;
}

/** Parses one proxy setting (a URL; without a scheme, http://); a bad one is exit 2 naming the variable. */
export function parseProxyUrl(value: string, variable: string): URL {
  const text = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw new UsageError(`${variable} is not a proxy URL: "${value.replace(/\/\/[^@/]*@/, '//…@')}"`, {
      hint: `Use ${variable}=http://host:port (or http://user:password@host:port).`,
    });
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new UsageError(`${variable} uses ${u.protocol}//, which pm does not support: only http:// and https:// proxies`, {
      hint: `Use an HTTP proxy: ${variable}=http://host:port`,
    });
  return u;
}

const defaultPort = (protocol: string): string => (protocol === 'https:' || protocol === 'wss:' ? '443' : '80');

/** An IPv4 address as a number. */
const ipv4 = (a: string): number => a.split('.').reduce((n, part) => n * 256 + Number(part), 0);

/** One NO_PROXY entry against a host (lower case, no brackets) and port. */
function entryMatches(entry: string, host: string, port: string): boolean {
  let e = entry.toLowerCase();
  let entryPort: string | undefined;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(e);
  if (bracketed) {
    e = bracketed[1] ?? '';
    entryPort = bracketed[2];
  } else if (/^[^:]+:\d+$/.test(e)) {
    const at = e.lastIndexOf(':');
    entryPort = e.slice(at + 1);
    e = e.slice(0, at);
  }
  if (entryPort !== undefined && entryPort !== port) return false;
  const block = /^(\d+\.\d+\.\d+\.\d+)\/(\d{1,2})$/.exec(e);
  if (block) {
    const bits = Number(block[2]);
    const net = block[1] ?? '';
    if (!isIPv4(host) || !isIPv4(net) || bits > 32) return false;
    // The addresses as numbers, cut to the block (bitwise operators would turn high addresses negative).
    const size = 2 ** (32 - bits);
    const start = (a: string): number => ipv4(a) - (ipv4(a) % size);
    return start(host) === start(net);
  }
  // An address matches itself only (0.0.1 is no domain of 127.0.0.1).
  if (isIP(host) !== 0) return host === e;
  const domain = e.replace(/^\*?\./, '').replace(/\.$/, '');
  return domain !== '' && (host === domain || host.endsWith(`.${domain}`));
}

/** Whether NO_PROXY sends `target` (a URL) directly. */
export function bypassesProxy(target: URL, noProxy: string | undefined): boolean {
  if (noProxy === undefined) return false;
  const host = target.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  const port = target.port || defaultPort(target.protocol);
  const entries = noProxy.split(/[\s,]+/).filter((x) => x !== '');
  return entries.some((e) => e === '*' || entryMatches(e, host, port));
}

/**
 * The proxy a connection to `target` (http, https, ws or wss URL) goes through, or undefined for
 * a direct connection.
 * @example proxyFor('https://api.limitless.exchange', { httpsProxy: 'http://proxy:3128' })?.shown // 'http://proxy:3128'
 */
export function proxyFor(target: string | URL, s: ProxySettings | undefined): ProxyRoute | undefined {
  if (s === undefined) return undefined;
  const t = typeof target === 'string' ? new URL(target) : target;
  const secure = t.protocol === 'https:' || t.protocol === 'wss:';
  const value = secure ? s.httpsProxy : s.httpProxy;
  if (value === undefined || value === '' || bypassesProxy(t, s.noProxy)) return undefined;
  const variable = secure ? 'HTTPS_PROXY' : 'HTTP_PROXY';
  const url = parseProxyUrl(value, variable);
  return { url, shown: shownProxy(url), variable };
}

/** The variable that chose `route`, with what it covers and the other one named beside it. */
function variables(route: ProxyRoute): string {
  return route.variable === 'HTTPS_PROXY'
    ? 'HTTPS_PROXY (the proxy for https:// and wss:// URLs; HTTP_PROXY for http:// and ws://)'
    : 'HTTP_PROXY (the proxy for http:// and ws:// URLs; HTTPS_PROXY for https:// and wss://)';
}

/** Where to look when the proxy fails: the variable that chose it, and NO_PROXY to go around it. */
export function proxyHint(route: ProxyRoute, target: string): string {
  const host = new URL(target).hostname.replace(/^\[|\]$/g, '');
  return `Check ${variables(route)}, or reach ${host} without it: NO_PROXY=${host}`;
}

/** The proxy answered 407: it wants credentials, or others than those given (exit 3). */
export function proxyAuthError(route: ProxyRoute): AuthError {
  const given = route.url.username !== '' || route.url.password !== '';
  return new AuthError(
    `the proxy ${route.shown} ${given ? 'refuses the credentials given' : 'asks for credentials'} (407 Proxy Authentication Required)`,
    {
      status: 407,
      hint: `${given ? 'Check' : 'Put'} them in ${variables(route)}: ${route.variable}=${route.url.protocol}//USER:PASSWORD@${route.url.host} (pm sends them to the proxy only, and never prints them).`,
    },
  );
}
