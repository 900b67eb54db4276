// The proxy rule (src/core/proxy.ts): which target goes through which proxy, NO_PROXY's forms,
// and that a proxy's credentials are never part of what pm shows.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.js';
import { readEnv } from '../../src/cli/env.js';
import { bypassesProxy, parseProxyUrl, proxyFor, proxyFromEnvironment } from '../../src/core/proxy.js';

const both = { httpsProxy: 'http://secure.proxy:3128', httpProxy: 'http://plain.proxy:8080' };
const via = (target: string, noProxy?: string) => proxyFor(target, { ...both, noProxy })?.shown;

describe('proxyFor', () => {
  it('https and wss use HTTPS_PROXY, http and ws HTTP_PROXY, with no fallback between them', () => {
    expect(via('https://api.limitless.exchange')).toBe('http://secure.proxy:3128');
    expect(via('wss://ws.limitless.exchange/markets')).toBe('http://secure.proxy:3128');
    expect(via('http://127.0.0.1:8787')).toBe('http://plain.proxy:8080');
    expect(via('ws://127.0.0.1:8787')).toBe('http://plain.proxy:8080');
    expect(proxyFor('http://a.example', { httpsProxy: both.httpsProxy })).toBeUndefined();
    expect(proxyFor('https://a.example', { httpProxy: both.httpProxy })).toBeUndefined();
    expect(proxyFor('https://a.example', undefined)).toBeUndefined();
    expect(proxyFor('https://a.example', { httpsProxy: '' })).toBeUndefined();
    expect(proxyFor('https://a.example', both)?.variable).toBe('HTTPS_PROXY');
    expect(proxyFor('http://a.example', both)?.variable).toBe('HTTP_PROXY');
  });

  it('loopback goes through the proxy unless NO_PROXY names it', () => {
    expect(via('http://127.0.0.1:8787')).toBeDefined();
    expect(via('http://localhost:8787')).toBeDefined();
    expect(via('http://[::1]:8787')).toBeDefined();
    expect(via('http://127.0.0.1:8787', '127.0.0.1')).toBeUndefined();
    expect(via('http://localhost:8787', 'localhost,127.0.0.1')).toBeUndefined();
    expect(via('http://[::1]:8787', '::1')).toBeUndefined();
    expect(via('http://[::1]:8787', '[::1]')).toBeUndefined();
    expect(via('http://127.0.0.2:8787', '127.0.0.0/8')).toBeUndefined();
  });

  it('keeps credentials for the agent and shows scheme, host and port only', () => {
    const r = proxyFor('https://api.example', { httpsProxy: 'http://user:p%40ss@proxy.corp:3128' });
    expect(r?.shown).toBe('http://proxy.corp:3128');
    expect(r?.url.username).toBe('user');
    expect(r?.url.password).toBe('p%40ss');
    expect(proxyFor('https://api.example', { httpsProxy: 'proxy.corp:3128' })?.shown).toBe('http://proxy.corp:3128');
    expect(proxyFor('https://api.example', { httpsProxy: 'https://proxy.corp' })?.shown).toBe('https://proxy.corp');
  });

  it('a proxy URL pm cannot use is exit 2 naming the variable, without the password', () => {
    for (const bad of ['socks5://proxy:1080', 'http://user:secret@[bad', 'http://']) {
      let err: unknown;
      try {
        proxyFor('https://api.example', { httpsProxy: bad });
      } catch (e) {
        err = e;
      }
      expect(err, bad).toBeInstanceOf(UsageError);
      expect((err as UsageError).message).toContain('HTTPS_PROXY');
      expect((err as UsageError).message).not.toContain('secret');
    }
    expect(() => parseProxyUrl('ftp://x', 'HTTP_PROXY')).toThrow(/HTTP_PROXY/);
  });
});

describe('NO_PROXY', () => {
  const bypass = (target: string, noProxy: string) => bypassesProxy(new URL(target), noProxy);
  it('* bypasses every host', () => {
    expect(bypass('https://api.limitless.exchange', '*')).toBe(true);
    expect(bypass('http://127.0.0.1:1', 'example.com, *')).toBe(true);
  });
  it('a domain covers itself and the names below it, with or without a leading dot or *.', () => {
    for (const entry of ['limitless.exchange', '.limitless.exchange', '*.limitless.exchange', 'LIMITLESS.exchange.']) {
      expect(bypass('https://api.limitless.exchange', entry), entry).toBe(true);
      expect(bypass('https://ws.api.limitless.exchange', entry), entry).toBe(true);
      expect(bypass('https://limitless.exchange', entry), entry).toBe(true);
      expect(bypass('https://notlimitless.exchange', entry), entry).toBe(false);
      expect(bypass('https://limitless.exchange.evil', entry), entry).toBe(false);
    }
  });
  it('a port limits the entry to that port (the scheme default when the URL has none)', () => {
    expect(bypass('http://127.0.0.1:8787', '127.0.0.1:8787')).toBe(true);
    expect(bypass('http://127.0.0.1:8788', '127.0.0.1:8787')).toBe(false);
    expect(bypass('https://api.example', 'api.example:443')).toBe(true);
    expect(bypass('wss://api.example', 'api.example:443')).toBe(true);
    expect(bypass('http://api.example', 'api.example:443')).toBe(false);
    expect(bypass('http://[::1]:8787', '[::1]:8787')).toBe(true);
    expect(bypass('http://[::1]:9', '[::1]:8787')).toBe(false);
  });
  it('addresses match exactly or by IPv4 block, never as a domain suffix', () => {
    expect(bypass('http://127.0.0.1', '0.0.1')).toBe(false);
    expect(bypass('http://127.0.0.1', '127.0.0.1')).toBe(true);
    expect(bypass('http://10.1.2.3', '10.0.0.0/8')).toBe(true);
    expect(bypass('http://11.1.2.3', '10.0.0.0/8')).toBe(false);
    expect(bypass('http://192.168.1.200', '192.168.1.128/25')).toBe(true);
    expect(bypass('http://192.168.1.100', '192.168.1.128/25')).toBe(false);
    expect(bypass('http://255.255.255.255', '255.255.255.0/24')).toBe(true);
    expect(bypass('http://1.2.3.4', '0.0.0.0/0')).toBe(true);
    expect(bypass('http://api.example', '10.0.0.0/8')).toBe(false);
  });
  it('entries are separated by commas or white space; empty ones match nothing', () => {
    expect(bypass('http://b.example', 'a.example b.example')).toBe(true);
    expect(bypass('http://b.example', ' ,, a.example,\tb.example ')).toBe(true);
    expect(bypass('http://c.example', ',, ,')).toBe(false);
    expect(bypass('http://c.example', '.')).toBe(false);
  });
});

describe('the variables (proxyFromEnvironment)', () => {
  it('reads either spelling; the lower-case one wins when both are set, an empty one counts as unset', () => {
    expect(proxyFromEnvironment({ HTTPS_PROXY: 'http://upper:1', https_proxy: 'http://lower:2' }).httpsProxy).toBe('http://lower:2');
    expect(proxyFromEnvironment({ HTTPS_PROXY: 'http://upper:1', https_proxy: '' }).httpsProxy).toBe('http://upper:1');
    expect(proxyFromEnvironment({ http_proxy: 'http://lower:2', no_proxy: 'localhost' })).toEqual({
      httpsProxy: undefined,
      httpProxy: 'http://lower:2',
      noProxy: 'localhost',
    });
    // Only the proxy variables have a lower-case spelling.
    expect(readEnv({ pm_home: '/tmp/x' }).PM_HOME).toBeUndefined();
  });
});
