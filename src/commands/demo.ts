// `pm demo`: starts an ephemeral sandbox in-process, runs each step as the command a user would
// type (printed with its output) against a throw-away PM_HOME, then stops the sandbox.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PmError } from '../core/errors.js';
import { defineCommand } from '../cli/command.js';

export interface DemoStep {
  note: string;
  argv: string[];
  /** Exit code the step is expected to end with (default 0). */
  expect?: number;
  /** Run as another seeded account (its token and identity token in the environment). */
  as?: 'carol';
}

/** The tour. Later features add their steps here. */
export function demoSteps(): DemoStep[] {
  return [
    { note: 'Browse the active markets (public data, no account needed)', argv: ['markets', 'list', '--limit', '5'] },
    { note: 'Search by text', argv: ['markets', 'search', 'bitcoin'] },
    { note: 'One market: outcomes with position ids, prices, volume, deadline, venue', argv: ['markets', 'show', 'btc-100k-2026'] },
    { note: 'A NegRisk group and its child markets', argv: ['markets', 'show', 'us-election-2028'] },
    { note: 'The order book with spread, midpoint and depth', argv: ['book', 'btc-100k-2026', '--depth', '4'] },
    { note: 'Price history as a sparkline', argv: ['markets', 'history', 'btc-100k-2026'] },
    { note: 'Recent trades', argv: ['markets', 'feed', 'btc-100k-2026', '--limit', '3'] },
    { note: 'A market page', argv: ['markets', 'page', '/crypto', '--limit', '3'] },
    { note: 'Everything is scriptable: --json prints stable JSON on stdout (raw units as strings)', argv: ['--json', 'book', 'btc-100k-2026'] },
    { note: 'Errors are clear and have exit codes: an unknown market exits 4', argv: ['markets', 'show', 'no-such-market'], expect: 4 },
    { note: "Set up a trading profile with the sandbox's seeded trader alice (keys and token stored encrypted)", argv: ['init', '--sandbox', '--yes'] },
    { note: 'Who am I? Verified with the exchange', argv: ['whoami'] },
    { note: 'A resting limit order (GTC), with a client id of your choosing (one is generated when absent)', argv: ['order', 'place', 'btc-100k-2026', 'buy', 'yes', '--price', '0.55', '--size', '10', '--client-id', 'demo-rest-1'] },
    { note: 'A crossing order fills at once against the best asks, fee included', argv: ['order', 'place', 'btc-100k-2026', 'buy', 'yes', '--type', 'fok', '--amount', '25'] },
    { note: 'What you hold now: shares, average price, cost, value and PnL (average cost basis)', argv: ['positions'] },
    { note: 'Running the same order again with the same client id never places a second one', argv: ['order', 'place', 'btc-100k-2026', 'buy', 'yes', '--price', '0.55', '--size', '10', '--client-id', 'demo-rest-1'] },
    { note: 'Invalid input is refused before anything is sent (exit 2)', argv: ['order', 'place', 'btc-100k-2026', 'buy', 'yes', '--price', '0.5555', '--size', '10'], expect: 2 },
    { note: 'Your open orders in the market', argv: ['order', 'list', '--market', 'btc-100k-2026'] },
    { note: 'Cancel them all', argv: ['order', 'cancel', '--all', 'btc-100k-2026'] },
    { note: 'Sell part of the position: the sale realises PnL against the average cost', argv: ['order', 'place', 'btc-100k-2026', 'sell', 'yes', '--type', 'fak', '--price', '0.6', '--size', '10'] },
    { note: 'The market resolves YES (a sandbox admin route: POST /__sandbox/resolve)', argv: ['sandbox', 'resolve', 'btc-100k-2026', 'yes'] },
    { note: 'Claim the winning shares: 1 USDC each, once', argv: ['redeem', 'btc-100k-2026'] },
    { note: 'A second claim of the same position is refused (exit 5)', argv: ['redeem', 'btc-100k-2026'], expect: 5 },
    { note: 'The position is closed; its PnL is all realised', argv: ['positions', '--market', 'btc-100k-2026'] },
    { note: 'Realised PnL over the last day (a line chart on a terminal, a sparkline when piped)', argv: ['portfolio', 'pnl', '--timeframe', '1d'] },
    { note: "carol trades from a server wallet: she allowlists a withdrawal address (identity token only)", argv: ['withdrawal-address', 'add', '0x000000000000000000000000000000000000bEEF', '--label', 'cold'], as: 'carol' },
    { note: 'The exact raw amount a withdrawal sends (--dry-run sends nothing)', argv: ['withdraw', '25.5', '--to', '0x000000000000000000000000000000000000bEEF', '--dry-run'], as: 'carol' },
    { note: 'Withdraw 25.5 USDC to it (--yes: no prompt)', argv: ['--yes', 'withdraw', '25.5', '--to', '0x000000000000000000000000000000000000bEEF'], as: 'carol' },
    { note: 'Any other destination is refused by the exchange (exit 3)', argv: ['--yes', 'withdraw', '1', '--to', '0x000000000000000000000000000000000000dEaD'], expect: 3, as: 'carol' },
    { note: "carol's history, newest first (cursor paging; --all follows every page)", argv: ['portfolio', 'history', '--limit', '3'], as: 'carol' },
  ];
}

export default defineCommand({
  path: ['demo'],
  summary: 'A guided tour of pm against a fresh in-process sandbox',
  examples: ['pm demo'],
  run: async (ctx) => {
    const { startSandbox } = await import('../sandbox/index.js');
    const home = mkdtempSync(join(tmpdir(), 'pm-demo-'));
    const sandbox = await startSandbox({ port: 0, dataDir: null });
    const out = ctx.out;
    try {
      out.line(out.c.bold(`pm demo: an ephemeral sandbox exchange is running at ${sandbox.baseUrl}`));
      out.line(out.c.dim(`(each step below is the command you would type; they run with PM_BASE_URL=${sandbox.baseUrl})`));
      // A throw-away home and passphrase: the demo keeps nothing. (Real use: a prompt, or PM_PASSPHRASE / --passphrase-file.)
      const env = { ...ctx.io.env, PM_HOME: home, PM_BASE_URL: sandbox.baseUrl, PM_WS_URL: sandbox.wsUrl, PM_PASSPHRASE: 'demo-passphrase', PM_SCRYPT_N: '16384', CI: '1' };
      out.line(out.c.dim(`(PM_HOME=${home}, PM_PASSPHRASE=demo-passphrase: a throw-away home for this tour)`));
      let n = 0;
      for (const step of demoSteps()) {
        n++;
        out.line();
        out.line(out.c.cyan(`# ${n}. ${step.note}`));
        out.line(`$ pm ${step.argv.map((a) => (/[\s"'|$]/.test(a) ? `'${a}'` : a)).join(' ')}`);
        const who = step.as ? sandbox.info.accounts.find((a) => a.name === step.as) : undefined;
        const stepEnv = who ? { ...env, PM_TOKEN_ID: who.token.tokenId, PM_TOKEN_SECRET: who.token.secret, PM_IDENTITY_TOKEN: who.identityToken, PM_PRIVATE_KEY: who.privateKey } : env;
        if (who) out.line(out.c.dim(`(as ${who.name}: PM_TOKEN_ID, PM_TOKEN_SECRET and PM_IDENTITY_TOKEN set to her seeded credentials)`));
        const code = await ctx.app.run([...step.argv, ...(ctx.flags.color ? [] : ['--no-color'])], { ...ctx.io, env: stepEnv, stderr: ctx.io.stdout });
        const expected = step.expect ?? 0;
        if (code !== expected) throw new PmError(`demo step ${n} exited ${code}, expected ${expected}`);
        if (code !== 0) out.line(out.c.dim(`(exit code ${code})`));
      }
      out.line();
      // From a clean clone `pm` is not on PATH: say how to run it (npx finds this package's own bin).
      out.line(out.c.bold('Done. To go on, run pm from this checkout with npx (a fresh clone does not put pm on your PATH):'));
      out.line('  npx pm sandbox start --detach     # your own sandbox, in the background');
      out.line('  npx pm init --sandbox --yes       # a profile with a wallet and a token for it');
      out.line('  npx pm doctor                     # check that everything works');
      out.line(out.c.dim('Or run npm link once in this checkout; after that plain pm works everywhere (pm sandbox start, pm --help).'));
    } finally {
      await sandbox.close();
      rmSync(home, { recursive: true, force: true });
    }
  },
});
