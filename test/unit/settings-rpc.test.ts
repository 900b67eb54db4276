// The RPC URL's precedence (core/settings.ts): --rpc-url > PM_RPC_URL > a sandbox's chain > the
// profile > Base's public RPC, the last only when the target is not a sandbox.
import { describe, expect, it } from 'vitest';
import { PUBLIC_BASE_RPC, Settings } from '../../src/core/settings.js';

const names = { baseUrl: '--base-url', wsUrl: '--ws-url', rpcUrl: '--rpc-url' };
const settings = (baseUrl: string, env: { rpcUrl?: string } = {}, profile: { rpcUrl?: string } = {}) =>
  new Settings({ flag: { baseUrl }, env, profile, names });

describe('Settings.rpcUrl', () => {
  it("the real exchange without any RPC given: Base's public RPC, from the default", () => {
    expect(settings('https://api.example.exchange').rpcUrl()).toEqual({ value: PUBLIC_BASE_RPC, source: 'default' });
    expect(PUBLIC_BASE_RPC).toBe('https://mainnet.base.org');
  });

  it('a sandbox without a chain: none (a sandbox is never pointed at Base)', () => {
    expect(settings('http://127.0.0.1:8787').rpcUrl()).toEqual({ value: undefined, source: 'unset' });
  });

  it('flag > environment > sandbox chain > profile > default', () => {
    const s = settings('https://api.example.exchange', { rpcUrl: 'http://env' }, { rpcUrl: 'http://profile' });
    expect(s.rpcUrl({ flag: 'http://flag', sandboxChain: 'http://chain' }).value).toBe('http://flag');
    expect(s.rpcUrl({ sandboxChain: 'http://chain' }).value).toBe('http://env');
    expect(settings('https://x.example', {}, { rpcUrl: 'http://profile' }).rpcUrl({ sandboxChain: 'http://chain' }).value).toBe(
      'http://chain',
    );
    expect(settings('https://x.example', {}, { rpcUrl: 'http://profile' }).rpcUrl()).toEqual({
      value: 'http://profile',
      source: 'profile',
    });
  });
});
