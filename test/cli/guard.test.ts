// Safety is declared: every command that is not `read`/`local` is stopped by the kernel's one guard
// before anything is looked up or sent when it would act on a target that is not a sandbox
// without a terminal and without --yes. The test walks the manifest, so a writer added later
// without a sample argv below fails here.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import manifest from '../../src/generated/manifest.json' with { type: 'json' };
import type { ManifestCommand } from '../../src/cli/command.js';
import { GUARDED_EFFECTS } from '../../src/cli/command.js';
import { accountEnv } from '../helpers/account-env.js';
import { KEY as KEYS, runInPty } from '../helpers/pty.js';
import { runPm, tempHome } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const commands = manifest as ManifestCommand[];
const { home, cleanup } = tempHome();
afterAll(cleanup);
const batch = join(home, 'orders.ndjson');
writeFileSync(batch, `${JSON.stringify({ market: 'btc-100k-2026', side: 'buy', outcome: 'yes', price: '0.01', size: '5' })}\n`);
const moves = join(home, 'moves.ndjson');
writeFileSync(moves, `${JSON.stringify({ orderId: 'nosuch', price: '0.02' })}\n`);
const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
// The profile that `profile remove old` removes (one that does not exist is refused before asking).
writeFileSync(join(home, 'config.json'), `${JSON.stringify({ version: 1, profiles: { old: {} } })}\n`, { mode: 0o600 });

/** The public development key (hardhat's first account). */
const KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
/**
 * An exchange that is not a sandbox, and cannot resolve: a request, had one been attempted, could
 * only fail, and --verbose's trace shows every attempt. `extra` over a token of its own.
 */
const remoteEnv = (extra: Record<string, string> = {}): Record<string, string> => ({
  PM_HOME: home,
  PM_BASE_URL: 'http://exchange.invalid',
  PM_TOKEN_ID: 'tok_test',
  PM_TOKEN_SECRET: Buffer.from('x'.repeat(32)).toString('base64'),
  ...extra,
});

/** A well-formed invocation of every guarded command (its words after `pm`). */
const SAMPLES: Record<string, string[][]> = {
  'order place': [
    ['order', 'place', 'btc-100k-2026', 'buy', 'yes', '--price', '0.01', '--size', '5'],
    ['order', 'place', 'btc-100k-2026', 'buy', 'yes', '--type', 'fok', '--amount', '1'],
    ['order', 'place', '--file', batch],
  ],
  'order cancel': [
    ['order', 'cancel', 'nosuch-id'],
    ['order', 'cancel', '--client-id', 'bot-1'],
    ['order', 'cancel', '--all'],
    ['order', 'cancel', '--all', 'btc-100k-2026'],
    ['order', 'cancel', '--market', 'btc-100k-2026'],
  ],
  'order replace': [
    ['order', 'replace', 'nosuch-id', '--price', '0.02'],
    ['order', 'replace', '--client-id', 'bot-1', '--price', '0.02'],
    ['order', 'replace', '--file', moves],
  ],
  withdraw: [['withdraw', '1.5', '--to', ADDRESS]],
  redeem: [
    ['redeem', 'eth-5k-2025'],
    ['redeem', '--all'],
    ['redeem', '--condition-id', `0x${'ab'.repeat(32)}`],
  ],
  'redeem-onchain': [['redeem-onchain', 'eth-5k-2025']],
  'approve set': [['approve', 'set', 'btc-100k-2026']],
  'withdrawal-address add': [['withdrawal-address', 'add', ADDRESS]],
  'withdrawal-address remove': [['withdrawal-address', 'remove', ADDRESS]],
  'partner create': [
    ['partner', 'create', '--server-wallet'],
    ['partner', 'create'],
  ],
  'partner onboard': [['partner', 'onboard', '--server-wallet', '--name', 'shop']],
  'token derive': [['token', 'derive']],
  'token revoke': [['token', 'revoke', 'tok_abc']],
  'wallet remove': [['wallet', 'remove', 'bot']],
  'wallet export': [['wallet', 'export', 'bot', '--out', '-']],
  'profile remove': [['profile', 'remove', 'old']],
  'sandbox reset': [['sandbox', 'reset']],
  'sandbox fund': [['sandbox', 'fund', '250', '--to', '1001']],
  'sandbox resolve': [['sandbox', 'resolve', 'btc-100k-2026', 'yes']],
};

const guarded = commands.filter((c) => GUARDED_EFFECTS.includes(c.effect));

describe('the manifest', () => {
  it('declares an effect for every command, and a sample invocation above for every guarded one', () => {
    for (const c of commands) expect(['read', 'local', 'order', 'money', 'destructive'], c.path.join(' ')).toContain(c.effect);
    expect(guarded.map((c) => c.path.join(' ')).sort()).toEqual(Object.keys(SAMPLES).sort());
  });

  it('gives --on-behalf-of exactly to the commands that declare actsFor', () => {
    for (const c of commands)
      expect(
        c.options.some((o) => o.name === 'onBehalfOf'),
        c.path.join(' '),
      ).toBe(c.actsFor === true);
  });
});

describe('against an exchange that is not a sandbox, with no terminal and no --yes', () => {
  const env = remoteEnv({ PM_RPC_URL: 'http://rpc.invalid', PM_PRIVATE_KEY: KEY });
  for (const [name, samples] of Object.entries(SAMPLES))
    for (const argv of samples)
      it(`pm ${argv.join(' ')}: exit 2, nothing attempted`, async () => {
        const r = await runPm(['--verbose', ...argv], { env });
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr).toMatch(/needs a confirmation|works only on a sandbox/);
        expect(r.stderr).toMatch(/nothing was sent/);
        // The transport traces each request it attempts ("→ #n METHOD path"): none.
        expect(r.stderr, name).not.toMatch(/\[http\]/);
        expect(r.stdout).toBe('');
      });
});

// A command line that cannot run is refused as what it is, before the guard asks about it: a
// script was told to add --yes first, and then that its command line was wrong (a terminal's
// prompt found it already: its text is made from the parsed order).
describe('a guarded command line that cannot run, against an exchange that is not a sandbox', () => {
  const env = remoteEnv({ PM_PRIVATE_KEY: KEY });
  // (The exit code is 2 unless given: a profile that does not exist is 4, said before asking too.)
  const cases: [string[], RegExp, number?][] = [
    [['order', 'place'], /market is missing/],
    [['order', 'place', 'btc-100k-2026', 'buy', 'yes', '--price', '2', '--size', '1'], /price 2 is out of range/],
    [['order', 'place', 'btc-100k-2026', 'buy', 'yes', '--file', batch], /either <slug> .* or --file, not both/],
    [['order', 'cancel'], /give order ids, or --client-id/],
    [['order', 'replace', '--price', '0.3'], /name the order to replace: its id or --client-id/],
    [['order', 'replace', 'ord-1'], /give --price, --size or both/],
    [['order', 'replace', 'ord-1', '--file', moves], /give either an order or --file, not both/],
    [['redeem'], /give exactly one of <slug>, --condition-id or --all/],
    [['withdraw', 'abc', '--to', ADDRESS], /amount "abc" is not a decimal number/],
    [['withdraw', '1', '--to', '0x1'], /--to "0x1" is not an address/],
    [['approve', 'set'], /name a market, or pass --all/],
    // (These were checked only in run, after the confirmation: a script was told to add --yes first.)
    [['partner', 'allowances', 'abc', '--retry'], /profile id/],
    [['partner', 'allowances', '2001', '--retry', '--wait-timeout', 'soon'], /--wait-timeout/],
    [['token', 'derive', '--scopes', 'trading,bogus'], /bogus/],
    [['partner', 'create', '--name', 'n'.repeat(62)], /44/],
    [['partner', 'create', '--server-wallet', '--wallet', 'bot'], /--server-wallet/],
    [['partner', 'onboard', '--server-wallet', '--name', 'x', '--fund', '5'], /--fund works on the sandbox only/],
    [['partner', 'onboard', '--server-wallet', '--name', 'n'.repeat(62)], /44/],
    [['partner', 'onboard', '--server-wallet', '--name', 'x', '--wait-timeout', 'soon'], /--wait-timeout/],
    [['partner', 'onboard', '--server-wallet', '--name', 'x', '--first-amount', '0'], /--first-amount must be greater than 0/],
    [['partner', 'onboard', '--resume', 'abc'], /--resume/],
    [['redeem-onchain', 'x', '--rpc-url', 'notaurl'], /--rpc-url "notaurl" is not an http\(s\) URL/],
    [['order', 'place', '--file', '/nonexistent'], /cannot read \/nonexistent/],
    [['withdrawal-address', 'add', '0x1'], /address "0x1" is not an address/],
    [['withdrawal-address', 'remove', '0x1'], /address "0x1" is not an address/],
    [['token', 'revoke', ' '], /the token id is empty/],
    [['wallet', 'export', 'bot'], /say where the export goes/],
    [['wallet', 'remove', KEY], /looks like a private key/],
    [['profile', 'remove', 'nosuch'], /no profile named "nosuch"/, 4],
  ];
  for (const [argv, said, code = 2] of cases)
    it(`pm ${argv.join(' ')}: exit ${code} with what is wrong, not a request for --yes; nothing attempted`, async () => {
      const r = await runPm(['--verbose', ...argv], { env });
      expect(r.code, r.stderr).toBe(code);
      expect(r.stderr).toMatch(said);
      expect(r.stderr).not.toMatch(/needs a confirmation/);
      expect(r.stderr).not.toMatch(/\[http\]/);
    });
  // On a terminal the same lines were shown "Go ahead?" first (describe does not parse them all),
  // and the error came only after a yes.
  const { CI: _ci, ...rest } = process.env;
  for (const [argv, said] of [
    [['partner', 'allowances', 'abc', '--retry'], /profile id must be a positive integer/],
    [['token', 'derive', '--scopes', 'trading,bogus'], /unknown scope "bogus"/],
    [['partner', 'create', '--name', 'n'.repeat(62)], /44/],
    [['partner', 'onboard', '--server-wallet', '--name', 'x', '--fund', '5'], /--fund works on the sandbox only/],
    [['order', 'place', '--file', '/nonexistent'], /cannot read \/nonexistent/],
    [['redeem-onchain', 'x', '--rpc-url', 'notaurl'], /--rpc-url "notaurl" is not an http\(s\) URL/],
  ] as [string[], RegExp][])
    it(`on a terminal, pm ${argv.join(' ')}: exit 2 with what is wrong, never "Go ahead?"`, async () => {
      const { code, screen } = await runInPty(
        ['node', 'bin/pm.js', '--verbose', ...argv],
        [{ waitFor: 'Go ahead?', send: `n${KEYS.enter}` }],
        {
          ...rest,
          ...env,
        },
      );
      expect(code, screen).toBe(2);
      expect(screen).toMatch(said);
      expect(screen).not.toContain('Go ahead?');
      expect(screen).not.toMatch(/\[http\]/);
    });
  it("approve set's hint names approve set (it named approve check)", async () => {
    const r = await runPm(['--json', 'approve', 'set'], { env });
    expect(JSON.parse(r.stderr)).toMatchObject({ error: { code: 'USAGE', hint: 'pm approve set btc-100k-2026, or pm approve set --all' } });
  });
});

// Commands whose declared effect is read or local, but one of whose invocations writes on the
// exchange (effectOf): `partner allowances --retry` submits a sub-account's approvals (POST
// …/allowances/retry), `init --derive` mints an API token (POST /auth/api-tokens/derive, what
// `pm token derive` does). Both went out without --yes before.
describe('invocations that write although their command reads, with no terminal and no --yes', () => {
  const env = remoteEnv({
    PM_IDENTITY_TOKEN: 'idt_test',
    PM_PASSPHRASE: 'pass-phrase-1',
    PM_SCRYPT_N: '1024',
    PM_TIMEOUT: '1s',
  });
  for (const argv of [
    ['partner', 'allowances', '2001', '--retry'],
    ['partner', 'allowances', '2001', '--retry', '--wait'],
    ['init', '--create-wallet', '--derive', '--profile-name', 'derived'],
  ])
    it(`pm ${argv.join(' ')}: exit 2, nothing attempted`, async () => {
      const r = await runPm(['--verbose', ...argv], { env });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/needs a confirmation .*nothing was sent/);
      expect(r.stderr).not.toMatch(/\[http\]/);
      expect(r.stdout).toBe('');
    });

  it('on a terminal, partner allowances --retry says what it will submit and for whom (it said only "Run pm partner allowances")', async () => {
    const { CI: _ci, ...rest } = process.env;
    const { code, screen } = await runInPty(
      ['node', 'bin/pm.js', 'partner', 'allowances', '2001', '--retry'],
      [{ waitFor: 'Go ahead?', send: `n${KEYS.enter}` }],
      { ...rest, ...env },
    );
    expect(code, screen).toBe(2);
    expect(screen).toMatch(/submit the approvals still missing for sub-account 2001/);
    expect(screen).toContain('Go ahead?');
  });

  it('on a terminal with no profile in use, partner create names the credentials in use, not a "profile default" beside "profile: (none)"', async () => {
    const { CI: _ci, ...rest } = process.env;
    const { code, screen } = await runInPty(
      ['node', 'bin/pm.js', 'partner', 'create', '--server-wallet', '--name', 'x'],
      [{ waitFor: 'Go ahead?', send: `n${KEYS.enter}` }],
      { ...rest, ...env },
    );
    expect(code, screen).toBe(2);
    expect(screen).toMatch(/for the partner credentials in use \(no profile\)/);
    expect(screen).not.toMatch(/under profile default/);
  });

  it('pm partner allowances without --retry still only reads: it goes ahead', async () => {
    const r = await runPm(['--verbose', 'partner', 'allowances', '2001'], { env });
    expect(r.stderr).not.toMatch(/needs a confirmation/);
    expect(r.stderr).toMatch(/\[http\]/);
  });
});

describe('against the sandbox', () => {
  const sb = useSandbox();
  it('order and money commands do not ask (they run: whatever they answer, it is not a request for --yes)', async () => {
    for (const c of guarded.filter((g) => g.effect !== 'destructive')) {
      for (const argv of SAMPLES[c.path.join(' ')] ?? []) {
        const r = await runPm(argv, { env: accountEnv(sb.current, 'partner', home) });
        expect(r.stderr, argv.join(' ')).not.toMatch(/needs a confirmation/);
      }
    }
  });

  it('destructive commands still ask (a key or a token is gone for good whatever the exchange)', async () => {
    for (const c of guarded.filter((g) => g.effect === 'destructive')) {
      const argv = SAMPLES[c.path.join(' ')]?.[0] ?? [];
      const r = await runPm(argv, { env: accountEnv(sb.current, 'partner', home) });
      expect(r.code, argv.join(' ')).toBe(2);
      // (An export changes nothing: it says what it writes out instead.)
      const why = c.path.join(' ') === 'wallet export' ? 'it writes a copy of the encrypted keystore' : 'a change that cannot be undone';
      expect(r.stderr, argv.join(' ')).toContain(`needs a confirmation (${why})`);
    }
    const key = await runPm(['wallet', 'export', 'bot', '--format', 'key', '--out', '-'], { env: accountEnv(sb.current, 'partner', home) });
    expect(key.code).toBe(2);
    expect(key.stdout).toBe('');
    expect(key.stderr).toContain('needs a confirmation (it writes the plain private key out of the keystore)');
  });

  // An on-chain command acts on its RPC, not on the exchange: a sandbox exchange with a remote RPC
  // (PM_RPC_URL) sends real transactions. Before, the guard judged the exchange alone, and
  // `approve set` sent an unlimited USDC approve and a setApprovalForAll with no yes.
  for (const argv of [
    ['approve', 'set', 'btc-100k-2026'],
    ['redeem-onchain', 'eth-5k-2025'],
  ]) {
    it(`pm ${argv.join(' ')} on a sandbox exchange with a remote RPC asks (exit 2, nothing sent to the RPC)`, async () => {
      const r = await runPm(['--verbose', ...argv], {
        env: accountEnv(sb.current, 'alice', home, { PM_RPC_URL: 'http://rpc.base.invalid' }),
      });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/needs a confirmation \(moving money on rpc\.base\.invalid, which is not a sandbox\).*nothing was sent/);
      expect(r.stderr).not.toMatch(/rpc\.base\.invalid\/|\[rpc\]/);
    });
    it(`pm ${argv.join(' ')} with a loopback RPC does not ask`, async () => {
      const r = await runPm(argv, { env: accountEnv(sb.current, 'alice', home, { PM_RPC_URL: 'http://127.0.0.1:9' }) });
      expect(r.stderr).not.toMatch(/needs a confirmation/);
    });
  }

  // init sets up the exchange of --base-url or PM_BASE_URL, else the real one: not the active
  // profile's. Before, with a sandbox profile active, init --derive minted a token on the real
  // exchange with no yes (the guard judged the sandbox).
  it('pm init --derive with a sandbox profile active and no --base-url judges the exchange init sets up (exit 2)', async () => {
    const own = join(home, 'init-derive');
    const env: Record<string, string> = { ...accountEnv(sb.current, 'alice', own), PM_PASSPHRASE: 'pass-phrase-1', PM_SCRYPT_N: '1024' };
    expect((await runPm(['init', '--sandbox', '--yes'], { env })).code).toBe(0);
    const { PM_BASE_URL: _, ...noUrl } = env;
    const r = await runPm(['--verbose', 'init', '--create-wallet', '--derive', '--profile-name', 'realp'], {
      env: { ...noUrl, PM_IDENTITY_TOKEN: 'idt_test' },
    });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/needs a confirmation \(moving money on api\.limitless\.exchange, which is not a sandbox\)/);
    expect(r.stderr).not.toMatch(/\[http\]/);
  });

  it('a dry run needs no yes anywhere: it sends nothing', async () => {
    const r = await runPm(['order', 'place', 'btc-100k-2026', 'buy', 'yes', '--price', '0.01', '--size', '5', '--dry-run'], {
      env: { ...accountEnv(sb.current, 'alice', home), PM_BASE_URL: 'http://exchange.invalid' },
    });
    expect(r.stderr).not.toMatch(/needs a confirmation/);
  });
});

// init --sandbox reads a sandbox's seeded accounts (GET /__sandbox/accounts): with a URL that is
// not loopback it is refused before anything is asked, as every sandbox command is. Before: the
// GET went to that host, and an answer there became a profile named "sandbox" (the safety audit).
describe('init --sandbox with a URL that is not a sandbox', () => {
  it('exit 2, nothing attempted', async () => {
    const r = await runPm(['--verbose', 'init', '--sandbox', '--yes'], {
      env: {
        PM_HOME: join(home, 'init-remote'),
        PM_BASE_URL: 'http://exchange.invalid',
        PM_PASSPHRASE: 'pass-phrase-1',
        PM_SCRYPT_N: '1024',
      },
    });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/is not a sandbox: nothing was sent/);
    expect(r.stderr).not.toMatch(/\[http\]/);
  });
});
