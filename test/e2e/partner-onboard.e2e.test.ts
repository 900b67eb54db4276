// pm partner onboard (issue 23): answers checked and asked again in place (name, profile name,
// fund amount), the child's profile saved as soon as the sub-account exists, and an interrupted
// onboarding (Ctrl-C in a pseudo-terminal, an error without one) that says how to resume and then
// resumes where it stopped.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { KEY, runInPty } from '../helpers/pty.js';
import { runPm, useTempHomes } from '../helpers/run.js';
import { postAdmin, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox({ settlement: { minedAfterMs: 50, confirmedAfterMs: 50 } });
const home = useTempHomes();

const partner = () => {
  const a = sb.current.info.accounts.find((x) => x.name === 'partner');
  if (!a) throw new Error('partner');
  return a;
};
const envFor = (h: string) => ({
  PM_HOME: h,
  PM_BASE_URL: sb.current.baseUrl,
  PM_TOKEN_ID: partner().token.tokenId,
  PM_TOKEN_SECRET: partner().token.secret,
  PM_PASSPHRASE: 'partner-pass-123',
  PM_SCRYPT_N: '16',
  PM_PACE: 'off',
});
const ptyEnv = (h: string) => ({ PATH: process.env['PATH'], HOME: process.env['HOME'], NO_COLOR: '1', ...envFor(h) });
const admin = async (path: string, body: unknown) => expect(await postAdmin(sb.current, path, body)).toBe(200);
/** How long the simulated chain takes to confirm an allowance target. */
const confirmAfter = (ms: number) =>
  admin('allowances', { confirmAfterMs: ms, lockMs: 0, retryMax: 50, retryWindowMs: 1000, failures: [] });

type Profiles = Record<string, { onBehalfOf?: number; address?: string; onboarding?: { step: string; serverWallet: boolean } }>;
const profiles = (h: string): Profiles => (JSON.parse(readFileSync(join(h, 'config.json'), 'utf8')) as { profiles: Profiles }).profiles;
const usdc = (id: number) => sb.current.ctx.state.accounts[String(id)]?.usdc ?? 0n;

beforeAll(async () => {
  await admin('faults', { rateLimit: false });
});

describe('the onboarding wizard asks again in place', () => {
  it('a 64-character name, a taken or bad profile name and a fund amount "abc" are each asked again; nothing exits', async () => {
    await confirmAfter(100);
    const h = home();
    const before = sb.current.ctx.state.profiles.length;
    // A profile name that is already taken, to be refused in place.
    writeFileSync(join(h, 'config.json'), JSON.stringify({ version: 1, profiles: { taken: { baseUrl: sb.current.baseUrl } } }), {
      mode: 0o600,
    });
    const clear = '\x15';
    const { code, screen } = await runInPty(
      ['node', 'bin/pm.js', 'partner', 'onboard'],
      [
        { waitFor: 'What kind of sub-account?', send: KEY.enter }, // server wallet
        { waitFor: 'Display name', send: `${'n'.repeat(64)}${KEY.enter}` },
        { waitFor: /64 characters long; the exchange accepts at most 44/, send: `${clear}Ask Again Shop${KEY.enter}` },
        { waitFor: 'Name of the pm profile', send: `${clear}taken${KEY.enter}` },
        { waitFor: 'a profile named taken already exists', send: `${clear}bad name!${KEY.enter}` },
        { waitFor: 'invalid profile name', send: `${clear}ask-again${KEY.enter}` },
        { waitFor: 'Fund it with how many USDC', send: `${clear}abc${KEY.enter}` },
        { waitFor: 'must be a decimal number', send: `${clear}25${KEY.enter}` },
        { waitFor: 'Place a first delegated order', send: `n${KEY.enter}` },
      ],
      ptyEnv(h),
      40_000,
    );
    expect(code, screen).toBe(0);
    expect(screen).not.toMatch(/error:|Pass a shorter|for example --/); // no exit, no flag the wizard user did not use
    expect(screen.match(/Display name/g)?.length ?? 0).toBeGreaterThanOrEqual(2);
    expect(screen).toMatch(/funded with 25 USDC/);
    expect(sb.current.ctx.state.profiles.length).toBe(before + 1); // exactly one sub-account
    const child = profiles(h)['ask-again'];
    expect(child?.onBehalfOf).toBeGreaterThan(0);
    expect(child?.onboarding).toBeUndefined(); // finished
    expect(usdc(child?.onBehalfOf ?? 0)).toBe(25_000_000n);
  }, 60_000);
});

describe('an interrupted onboarding says how to resume, and resumes where it stopped', () => {
  it('Ctrl-C while waiting for the allowances: the profile is saved, the hint names --resume; the wizard then offers to go on', async () => {
    // Slow enough that Ctrl-C lands during the wait.
    await confirmAfter(4000);
    const h = home();
    const first = await runInPty(
      ['node', 'bin/pm.js', 'partner', 'onboard'],
      [
        { waitFor: 'What kind of sub-account?', send: KEY.enter },
        { waitFor: 'Display name', send: `Cut Shop${KEY.enter}` },
        { waitFor: 'Name of the pm profile', send: KEY.enter }, // cut-shop
        { waitFor: /allowances \d\/\d confirmed/, send: '\x03' },
      ],
      ptyEnv(h),
      40_000,
    );
    expect(first.code, first.screen).toBe(130);
    const saved = profiles(h)['cut-shop'];
    const id = saved?.onBehalfOf ?? 0;
    expect(id).toBeGreaterThan(0);
    expect(saved).toMatchObject({ onboarding: { step: 'allowances', serverWallet: true } });
    expect(first.screen).toContain(`pm partner onboard --resume ${id}`);
    expect(first.screen).toMatch(/pm profile cut-shop is saved/);

    const count = sb.current.ctx.state.profiles.length;
    const again = await runInPty(
      ['node', 'bin/pm.js', 'partner', 'onboard'],
      [
        { waitFor: `Resume sub-account ${id} (Cut Shop): next, waiting for its allowances`, send: KEY.enter },
        { waitFor: 'Fund it with how many USDC', send: `${'\x15'}7${KEY.enter}` },
        { waitFor: 'Place a first delegated order', send: `n${KEY.enter}` },
      ],
      ptyEnv(h),
      40_000,
    );
    expect(again.code, again.screen).toBe(0);
    expect(again.screen).not.toMatch(/What kind of sub-account|Display name/); // nothing asked twice
    expect(again.screen).toMatch(/ready: allowances 5\/5 confirmed/);
    expect(sb.current.ctx.state.profiles.length).toBe(count); // no second sub-account
    expect(usdc(id)).toBe(7_000_000n);
    expect(profiles(h)['cut-shop']?.onboarding).toBeUndefined();
  }, 90_000);

  it('without a TTY: an allowance timeout after creation exits 7 naming --resume; --resume --wait --fund finishes it', async () => {
    await confirmAfter(3000);
    const h = home();
    const env = envFor(h);
    const r = await runPm(
      [
        '--json',
        'partner',
        'onboard',
        '--server-wallet',
        '--name',
        'Slow Shop',
        '--yes',
        '--wait',
        '--wait-timeout',
        '500ms',
        '--fund',
        '3',
      ],
      { env },
    );
    expect(r.code).toBe(7);
    const err = (JSON.parse(r.stderr) as { error: { hint: string } }).error;
    const saved = profiles(h)['slow-shop'];
    const id = saved?.onBehalfOf ?? 0;
    expect(id).toBeGreaterThan(0);
    expect(err.hint).toContain(`pm partner onboard --resume ${id}`);
    expect(saved?.onboarding?.step).toBe('allowances');
    expect(usdc(id)).toBe(0n); // it stopped before funding

    // --resume takes no creation flags, and an id with nothing to resume is exit 4.
    expect((await runPm(['partner', 'onboard', '--resume', String(id), '--name', 'x'], { env })).code).toBe(2);
    expect((await runPm(['partner', 'onboard', '--resume', '999999'], { env })).code).toBe(4);

    const done = await runPm(['--json', 'partner', 'onboard', '--resume', String(id), '--yes', '--wait', '--fund', '3'], { env });
    expect(done.code, done.stderr).toBe(0);
    expect(done.json()).toMatchObject({ profileId: id, profile: 'slow-shop', allowances: { ready: true }, funded: '3' });
    expect(usdc(id)).toBe(3_000_000n);
    expect(profiles(h)['slow-shop']?.onboarding).toBeUndefined();
    // Finished: a second --resume has nothing left to do.
    const twice = await runPm(['partner', 'onboard', '--resume', String(id)], { env });
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/finished/);
  }, 60_000);

  it("a sub-account the partner's profile records but that has no pm profile of its own (pm partner create) is resumed and gets one", async () => {
    await confirmAfter(100);
    const h = home();
    const env = { PM_HOME: h, PM_PASSPHRASE: 'partner-pass-123', PM_SCRYPT_N: '16', PM_PACE: 'off' };
    const init = await runPm(
      ['--base-url', sb.current.baseUrl, 'init', '--sandbox', '--account', 'partner', '--profile-name', 'p', '--yes'],
      {
        env,
      },
    );
    expect(init.code, init.stderr).toBe(0);
    const made = await runPm(['--json', 'partner', 'create', '--server-wallet', '--name', 'Made Earlier'], { env });
    expect(made.code, made.stderr).toBe(0);
    const id = made.json<{ profileId: number }>().profileId;
    expect(Object.values(profiles(h)).some((p) => p.onBehalfOf === id)).toBe(false);
    const r = await runPm(['--json', 'partner', 'onboard', '--resume', String(id), '--yes', '--wait'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ profileId: id, profile: `child-${id}`, allowances: { ready: true } });
    expect(profiles(h)[`child-${id}`]).toMatchObject({ onBehalfOf: id, address: made.json<{ account: string }>().account });
    expect(profiles(h)[`child-${id}`]?.onboarding).toBeUndefined();
  });
});
