// `pm demo`: starts an ephemeral sandbox in-process, runs each step as the command a user would
// type (printed with its output) against a throw-away PM_HOME, then stops the sandbox.
import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InterruptedError, PmError, UsageError } from '../core/errors.js';
import { defineCommand } from '../cli/command.js';
import type { Context } from '../cli/context.js';

interface DemoStep {
  note: string;
  argv: string[];
  /** Exit code the step is expected to end with (default 0). */
  expect?: number;
  /** Run as another seeded account (its token and identity token in the environment). */
  as?: 'carol' | 'partner';
  /** Keep a value of this step's stdout under a name; later steps say `{name}` in their argv. */
  capture?: { name: string; from: (stdout: string) => string };
}

/**
 * How to run this pm next, by how it was installed: from a git checkout (`pm`, once `npm link` has
 * put it on PATH: npx would add about a second to every command), an installed package whose `pm`
 * is on PATH (`pm`), or one that is not (by the path of the bin npm linked, else
 * `node <package>/bin/pm.js`).
 * @example howToRun('/usr/lib/node_modules/pm-cli', '/usr/bin') // { kind: 'path', pm: 'pm' }
 */
export function howToRun(root: string, path: string | undefined): { kind: 'checkout' | 'path' | 'bin' | 'node'; pm: string } {
  if (existsSync(join(root, '.git'))) return { kind: 'checkout', pm: 'pm' };
  const real = (p: string): string | null => {
    try {
      return realpathSync(p);
    } catch {
      return null;
    }
  };
  const self = real(join(root, 'bin', 'pm.js'));
  for (const dir of (path ?? '').split(delimiter).filter(Boolean)) {
    const hit = real(join(dir, 'pm'));
    if (hit !== null && hit === self) return { kind: 'path', pm: 'pm' };
  }
  // npm links the bin into <prefix>/bin for a global install (<prefix>/lib/node_modules/<pkg>),
  // into node_modules/.bin for a local one.
  const modules = dirname(root);
  const links =
    basename(modules) !== 'node_modules'
      ? []
      : [...(basename(dirname(modules)) === 'lib' ? [join(dirname(dirname(modules)), 'bin', 'pm')] : []), join(modules, '.bin', 'pm')];
  const link = links.find((l) => self !== null && real(l) === self);
  return link ? { kind: 'bin', pm: link } : { kind: 'node', pm: `node ${join(root, 'bin', 'pm.js')}` };
}

/** The tour. Later features add their steps here. */
function demoSteps(): DemoStep[] {
  return [
    { note: 'Browse the active markets (public data, no account needed)', argv: ['markets', 'list', '--limit', '5'] },
    { note: 'Search by text', argv: ['markets', 'search', 'bitcoin'] },
    { note: 'One market: outcomes with position ids, prices, volume, deadline, venue', argv: ['markets', 'show', 'btc-100k-2026'] },
    { note: 'A NegRisk group and its child markets', argv: ['markets', 'show', 'us-election-2028'] },
    { note: 'The order book with spread, midpoint and depth', argv: ['book', 'btc-100k-2026', '--depth', '4'] },
    { note: 'Price history as a sparkline', argv: ['markets', 'history', 'btc-100k-2026'] },
    { note: 'Recent trades', argv: ['markets', 'feed', 'btc-100k-2026', '--limit', '3'] },
    { note: 'A market page', argv: ['markets', 'page', '/crypto', '--limit', '3'] },
    {
      note: 'Everything is scriptable: --json prints stable JSON on stdout (raw units as strings)',
      argv: ['--json', 'book', 'btc-100k-2026'],
    },
    { note: 'Errors are clear and have exit codes: an unknown market exits 4', argv: ['markets', 'show', 'no-such-market'], expect: 4 },
    {
      note: "Set up a trading profile with the sandbox's seeded trader alice (keys and token stored encrypted)",
      argv: ['init', '--sandbox', '--yes'],
    },
    { note: 'Who am I? Verified with the exchange', argv: ['whoami'] },
    {
      note: 'A resting limit order (GTC), with a client id of your choosing (one is generated when absent)',
      argv: ['order', 'place', 'btc-100k-2026', 'buy', 'yes', '--price', '0.55', '--size', '10', '--client-id', 'demo-rest-1'],
    },
    {
      note: 'A crossing order fills at once against the best asks, fee included',
      argv: ['order', 'place', 'btc-100k-2026', 'buy', 'yes', '--type', 'fok', '--amount', '25'],
    },
    { note: 'What you hold now: shares, average price, cost, value and PnL (average cost basis)', argv: ['positions'] },
    {
      note: 'Running the same order again with the same client id never places a second one',
      argv: ['order', 'place', 'btc-100k-2026', 'buy', 'yes', '--price', '0.55', '--size', '10', '--client-id', 'demo-rest-1'],
    },
    {
      note: 'Invalid input is refused before anything is sent (exit 2)',
      argv: ['order', 'place', 'btc-100k-2026', 'buy', 'yes', '--price', '0.5555', '--size', '10'],
      expect: 2,
    },
    { note: 'Your open orders in the market', argv: ['order', 'list', '--market', 'btc-100k-2026'] },
    { note: 'Cancel them all', argv: ['order', 'cancel', '--all', 'btc-100k-2026'] },
    {
      note: 'Sell part of the position: the sale realises PnL against the average cost',
      argv: ['order', 'place', 'btc-100k-2026', 'sell', 'yes', '--type', 'fak', '--price', '0.6', '--size', '10'],
    },
    {
      note: 'The market resolves YES (a sandbox admin route: POST /__sandbox/resolve)',
      argv: ['sandbox', 'resolve', 'btc-100k-2026', 'yes'],
    },
    { note: 'Claim the winning shares: 1 USDC each, once', argv: ['redeem', 'btc-100k-2026'] },
    { note: 'A second claim of the same position is refused (exit 5)', argv: ['redeem', 'btc-100k-2026'], expect: 5 },
    { note: 'The position is closed; its PnL is all realised', argv: ['positions', '--market', 'btc-100k-2026'] },
    {
      note: 'Realised PnL over the last day (a line chart on a terminal, a sparkline when piped)',
      argv: ['portfolio', 'pnl', '--timeframe', '1d'],
    },
    {
      note: 'carol trades from a server wallet: she allowlists a withdrawal address (identity token only)',
      argv: ['withdrawal-address', 'add', '0x000000000000000000000000000000000000bEEF', '--label', 'cold'],
      as: 'carol',
    },
    {
      note: 'The exact raw amount a withdrawal sends (--dry-run sends nothing)',
      argv: ['withdraw', '25.5', '--to', '0x000000000000000000000000000000000000bEEF', '--dry-run'],
      as: 'carol',
    },
    {
      note: 'Withdraw 25.5 USDC to it (--yes: no prompt)',
      argv: ['--yes', 'withdraw', '25.5', '--to', '0x000000000000000000000000000000000000bEEF'],
      as: 'carol',
    },
    {
      note: 'Any other destination is refused by the exchange (exit 3)',
      argv: ['--yes', 'withdraw', '1', '--to', '0x000000000000000000000000000000000000dEaD'],
      expect: 3,
      as: 'carol',
    },
    {
      note: "carol's history, newest first (cursor paging; --all follows every page)",
      argv: ['portfolio', 'history', '--limit', '3'],
      as: 'carol',
    },
    ...partnerTour(),
  ];
}

/**
 * The partner tour: a platform creates a server-wallet sub-account for one of its users, waits
 * until its allowances are confirmed, funds it, trades for it with a delegated order (the
 * exchange signs with the child's wallet), reads its positions and withdraws for it, then lists
 * its sub-accounts. Runs as the seeded partner; `{child}` is the profile id the first step made.
 */
function partnerTour(): DemoStep[] {
  const as = 'partner' as const;
  const child = { name: 'child', from: (stdout: string) => String((JSON.parse(stdout) as { profileId: number }).profileId) };
  return [
    {
      note: 'Partners: create a sub-account with a server wallet (the exchange keeps its key)',
      argv: ['--json', 'partner', 'create', '--server-wallet', '--name', 'demo-shop'],
      as,
      capture: child,
    },
    {
      note: 'Wait until its wallet may trade: each allowance goes missing → submitted → confirmed',
      argv: ['partner', 'allowances', '{child}', '--retry', '--wait'],
      as,
    },
    {
      note: 'Fund it (a sandbox admin route; on the real exchange, send USDC to its address)',
      argv: ['sandbox', 'fund', '50', '--to', '{child}'],
      as,
    },
    {
      note: "A delegated order for it: unsigned, the exchange signs with the sub-account's wallet",
      argv: [
        'order',
        'place',
        'fed-cut-december',
        'buy',
        'yes',
        '--type',
        'fok',
        '--amount',
        '10',
        '--on-behalf-of',
        '{child}',
        '--delegated',
      ],
      as,
    },
    { note: 'Its positions, read on its behalf', argv: ['positions', '--on-behalf-of', '{child}'], as },
    {
      note: "Withdraw 5 USDC from its wallet to the partner's own address (the default destination)",
      argv: ['--yes', 'withdraw', '5', '--on-behalf-of', '{child}'],
      as,
    },
    { note: 'All your sub-accounts', argv: ['partner', 'list'], as },
  ];
}

/**
 * The on-chain tour (`pm demo --chain`): the sandbox runs a local chain (anvil from npm), and
 * alice's EOA needs real approvals before the exchange takes her orders.
 */
function chainDemoSteps(): DemoStep[] {
  return [
    {
      note: "Set up a profile with the sandbox's seeded trader alice; on-chain commands find the sandbox's chain by themselves",
      argv: ['init', '--sandbox', '--yes'],
    },
    { note: "alice's wallet on chain: ETH for gas and USDC", argv: ['balance', '--chain'] },
    {
      note: 'The approvals this market needs and where they stand (read first, nothing sent; exit 8 while some are missing)',
      argv: ['approve', 'check', 'btc-100k-2026'],
      expect: 8,
    },
    {
      note: 'Without the USDC allowance the exchange refuses a BUY (exit 9)',
      argv: ['order', 'place', 'btc-100k-2026', 'buy', 'yes', '--type', 'fok', '--amount', '25'],
      expect: 9,
    },
    {
      note: 'Send only the missing approvals (--yes: no prompt); transaction hashes on stdout',
      argv: ['--yes', 'approve', 'set', 'btc-100k-2026'],
    },
    { note: 'A second run finds nothing missing and sends nothing', argv: ['--yes', 'approve', 'set', 'btc-100k-2026'] },
    {
      note: 'Now the same order is accepted and fills',
      argv: ['order', 'place', 'btc-100k-2026', 'buy', 'yes', '--type', 'fok', '--amount', '25'],
    },
    {
      note: "The shares just bought are in the exchange's ledger (pm positions), not in the wallet: the sandbox does not settle trades on chain",
      argv: ['balance', 'btc-100k-2026', '--chain'],
    },
    { note: 'The market resolves YES: the sandbox posts the payout on chain too', argv: ['sandbox', 'resolve', 'btc-100k-2026', 'yes'] },
    {
      note: "Redeem on chain: alice's winning tokens of the resolved eth-5k-2025 market become USDC in her wallet",
      argv: ['--yes', 'redeem-onchain', 'eth-5k-2025'],
    },
    { note: 'The USDC arrived; the position tokens are gone', argv: ['balance', 'eth-5k-2025', '--chain'] },
  ];
}

/**
 * The live-stream step: `pm watch orders` runs beside the tour while a resting order is placed,
 * a crossing order fills (and settles) and the resting one is cancelled; the events it receives
 * are printed as they arrive, each line marked `[watch]`. Self-contained: it needs a profile
 * with a token (the tour's `init --sandbox`).
 */
async function demoWatchStep(ctx: Context, n: number, env: Record<string, string | undefined>, noColor: string[]): Promise<void> {
  const out = ctx.out;
  const slug = 'fed-cut-december';
  const watchArgv = ['watch', 'orders', '--market', slug, '--count', '5', '--timeout', '10s'];
  out.line();
  out.line(
    out.c.cyan(`# ${n}. Live order events: pm watch orders streams them while another shell trades (one line each; --json for NDJSON)`),
  );
  out.line(`$ pm ${watchArgv.join(' ')} &`);
  const ac = new AbortController();
  let subscribed!: () => void;
  const ready = new Promise<void>((resolve) => (subscribed = resolve));
  const mark = (s: string): string => s.replace(/^(?=.)/gm, out.c.magenta('  [watch] '));
  const watchIo = {
    ...ctx.io,
    env,
    signal: ac.signal,
    stdout: { write: (s: string) => ctx.io.stdout.write(mark(s)) },
    stderr: {
      write: (s: string) => {
        if (/subscribed/.test(s)) subscribed();
        return ctx.io.stdout.write(mark(s));
      },
    },
  };
  ctx.signal?.addEventListener('abort', () => ac.abort(ctx.signal?.reason), { once: true });
  const watching = ctx.app.run([...watchArgv, ...noColor], watchIo);
  const guard = setTimeout(() => ac.abort(new Error('demo watch step took too long')), 15_000);
  try {
    await Promise.race([ready, watching]);
    const trades: string[][] = [
      ['order', 'place', slug, 'buy', 'yes', '--price', '0.60', '--size', '5', '--client-id', 'demo-watch-1'],
      ['order', 'place', slug, 'buy', 'yes', '--type', 'fok', '--amount', '5'],
      ['order', 'cancel', '--client-id', 'demo-watch-1'],
    ];
    for (const argv of trades) {
      out.line(`$ pm ${argv.join(' ')}`);
      const code = await ctx.app.run([...argv, ...noColor], { ...ctx.io, env, stderr: ctx.io.stdout });
      if (code !== 0) throw stepError(ctx, n, `pm ${argv.join(' ')}`, code);
    }
    const code = await watching; // ends by itself after 5 events: PLACEMENT, FILLED, MATCHED, MINED, CANCELLATION
    if (code !== 0) throw stepError(ctx, n, 'pm watch orders', code);
  } finally {
    clearTimeout(guard);
    ac.abort();
    await watching.catch(() => undefined);
  }
}

/** A step that did not end as the tour expects; Ctrl-C (exit 130, or the signal) is an interruption. */
function stepError(ctx: Context, n: number, what: string, code: number, expected = 0): PmError {
  if (code === 130 || ctx.signal?.aborted === true)
    return new InterruptedError(`demo interrupted at step ${n} (${what}); its sandbox and home are removed`);
  return new PmError(`demo step ${n} (${what}) exited ${code}, expected ${expected}`);
}

export default defineCommand({
  path: ['demo'],
  effect: 'local',
  longRunning: true,
  summary: 'A guided tour of pm against a fresh in-process sandbox',
  options: {
    chain: { type: 'boolean', description: 'the on-chain tour: a local chain (anvil from npm), approvals, an on-chain redemption' },
  },
  examples: ['pm demo', 'pm demo --chain'],
  run: async (ctx, { opts }) => {
    if (ctx.out.isJson && ctx.formatSource === 'flag')
      throw new UsageError('pm demo is a guided tour for people: it has no JSON output', {
        hint: 'Run pm demo without --json; its steps show the --json of each command.',
      });
    const { startSandbox } = await import('../sandbox/index.js');
    const home = mkdtempSync(join(tmpdir(), 'pm-demo-'));
    const sandbox = await startSandbox({ port: 0, dataDir: null, ...(opts.chain ? { chain: {} } : {}) });
    const out = ctx.out;
    try {
      out.line(out.c.bold(`pm demo: an ephemeral sandbox exchange is running at ${sandbox.baseUrl}`));
      out.line(out.c.dim(`(each step below is the command you would type; they run with PM_BASE_URL=${sandbox.baseUrl})`));
      // A throw-away home and passphrase: the demo keeps nothing. (Real use: a prompt, or PM_PASSPHRASE / --passphrase-file.)
      const env = {
        ...ctx.io.env,
        PM_HOME: home,
        PM_BASE_URL: sandbox.baseUrl,
        PM_WS_URL: sandbox.wsUrl,
        PM_PASSPHRASE: 'demo-passphrase',
        PM_SCRYPT_N: '16384',
        CI: '1',
      };
      out.line(out.c.dim(`(PM_HOME=${home}, PM_PASSPHRASE=demo-passphrase: a throw-away home for this tour)`));
      let n = 0;
      const vars: Record<string, string> = {};
      if (sandbox.info.rpcUrl)
        out.line(
          out.c.dim(
            `(a local chain runs at ${sandbox.info.rpcUrl}: USDC ${sandbox.info.contracts?.usdc ?? '?'}, conditional tokens ${sandbox.info.contracts?.conditionalTokens ?? '?'})`,
          ),
        );
      for (const step of opts.chain ? chainDemoSteps() : demoSteps()) {
        n++;
        const argv = step.argv.map((a) => a.replace(/\{(\w+)\}/g, (m, k: string) => vars[k] ?? m));
        out.line();
        out.line(out.c.cyan(`# ${n}. ${step.note}`));
        out.line(`$ pm ${argv.map((a) => (/[\s"'|$]/.test(a) ? `'${a}'` : a)).join(' ')}`);
        const who = step.as ? sandbox.info.accounts.find((a) => a.name === step.as) : undefined;
        const stepEnv = who
          ? {
              ...env,
              PM_TOKEN_ID: who.token.tokenId,
              PM_TOKEN_SECRET: who.token.secret,
              PM_IDENTITY_TOKEN: who.identityToken,
              PM_PRIVATE_KEY: who.privateKey,
            }
          : env;
        if (who)
          out.line(
            out.c.dim(`(as ${who.name}: PM_TOKEN_ID, PM_TOKEN_SECRET and PM_IDENTITY_TOKEN set to the seeded ${who.name}'s credentials)`),
          );
        let captured = '';
        const stdout = step.capture
          ? { write: (t: string) => ((captured += t), ctx.io.stdout.write(t)), isTTY: ctx.io.stdout.isTTY, columns: ctx.io.stdout.columns }
          : ctx.io.stdout;
        const code = await ctx.app.run([...argv, ...(ctx.flags.color ? [] : ['--no-color'])], {
          ...ctx.io,
          stdout,
          env: stepEnv,
          stderr: ctx.io.stdout,
        });
        if (step.capture && code === 0) vars[step.capture.name] = step.capture.from(captured);
        const expected = step.expect ?? 0;
        if (code !== expected) throw stepError(ctx, n, `pm ${argv.join(' ')}`, code, expected);
        if (code !== 0) out.line(out.c.dim(`(exit code ${code})`));
      }
      await demoWatchStep(ctx, ++n, env, ctx.flags.color ? [] : ['--no-color']);
      out.line();
      const next = howToRun(fileURLToPath(new URL('../..', import.meta.url)), ctx.io.env['PATH']);
      if (next.kind === 'checkout')
        // From a clean clone `pm` is not on PATH: npm link puts this checkout's bin there.
        out.line(out.c.bold('Done. To go on (a fresh clone does not put pm on your PATH):'));
      else if (next.kind === 'path') out.line(out.c.bold('Done. To go on:'));
      else if (next.kind === 'bin')
        out.line(
          out.c.bold(
            `Done. pm is installed at ${next.pm}, which is not on your PATH (add ${dirname(next.pm)} to it for plain pm). To go on:`,
          ),
        );
      else out.line(out.c.bold('Done. pm is installed, but npm linked no pm command for it. To go on:'));
      const steps: [string, string][] = [
        ...(next.kind === 'checkout'
          ? [['npm link', 'once, in this checkout: puts pm on your PATH (or npm install -g .)'] as [string, string]]
          : []),
        [`${next.pm} sandbox start --detach${opts.chain ? ' --chain' : ''}`, 'your own sandbox, in the background'],
        [`${next.pm} init --sandbox --yes`, 'a profile with a wallet and a token for it'],
        [`${next.pm} doctor`, 'check that everything works'],
      ];
      const width = Math.max(...steps.map(([c]) => c.length)) + 4;
      for (const [cmd, what] of steps) out.line(`  ${cmd.padEnd(width)}# ${what}`);
      if (next.kind === 'checkout') out.line(out.c.dim('Without npm link: node bin/pm.js sandbox start --detach, and so on.'));
    } finally {
      await sandbox.close();
      rmSync(home, { recursive: true, force: true });
    }
  },
});
