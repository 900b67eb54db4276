// The environment that makes pm act as one of the sandbox's seeded accounts (credentials from the
// environment, no profile), and the batch files the tests place.
import type { ReadyAccount, SandboxHandle } from '../../src/sandbox/index.js';

/** The sandbox's seeded account `name` (alice, bob, carol, partner…). */
export function seeded(sb: SandboxHandle, name: string): ReadyAccount {
  const a = sb.info.accounts.find((x) => x.name === name);
  if (!a) throw new Error(`no seeded account ${name}`);
  return a;
}

/** PM_HOME, PM_BASE_URL and the seeded account's token and key, plus `extra`. */
export function accountEnv(sb: SandboxHandle, name: string, home: string, extra: Record<string, string> = {}): Record<string, string> {
  const a = seeded(sb, name);
  return {
    PM_HOME: home,
    PM_BASE_URL: sb.baseUrl,
    PM_TOKEN_ID: a.token.tokenId,
    PM_TOKEN_SECRET: a.token.secret,
    PM_PRIVATE_KEY: a.privateKey,
    ...extra,
  };
}

/** `n` resting BUY YES lines of one share on a 0.001 ladder from 0.100 (distinct orders, nothing matches). */
export function ladder(n: number, market = 'gpt-6-release-2026'): object[] {
  return Array.from({ length: n }, (_, i) => ({ market, side: 'buy', outcome: 'yes', price: (0.1 + i / 1000).toFixed(3), size: '1' }));
}
