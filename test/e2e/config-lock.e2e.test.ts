// Issue 20 #5 and #7: parallel pm processes that write PM_HOME's config and secrets never lose
// each other's writes (every read-modify-write takes the config lock and re-reads under it), and
// init's requests go through the shared per-token limiter. Before the fix 10 parallel
// `config set` kept 5 profiles, 6 parallel `token add` lost 5 token ids, 6 parallel inits kept
// one profile, and `init && partner create` drew a 429 three times out of three.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { runPm, useTempHomes } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const newHome = useTempHomes();
const pm = (home: string, argv: string[], extra: Record<string, string> = {}) =>
  execa('node', ['bin/pm.js', ...argv], {
    env: { PM_HOME: home, PM_SCRYPT_N: '1024', PM_PASSPHRASE: 'correct horse battery', CI: '1', ...extra },
    extendEnv: false,
    stdin: 'ignore',
    reject: false,
  });
const config = (home: string) =>
  JSON.parse(readFileSync(join(home, 'config.json'), 'utf8')) as { profiles: Record<string, Record<string, unknown>> };

describe('parallel writers of the config', () => {
  it('20 parallel config set keep 20 profiles', async () => {
    const home = newHome();
    const runs = await Promise.all(
      Array.from({ length: 20 }, (_, i) => pm(home, ['--profile', `p${i}`, 'config', 'set', 'timeout', `${i + 1}s`])),
    );
    for (const r of runs) expect(r.exitCode, r.stderr).toBe(0);
    const cfg = config(home);
    expect(Object.keys(cfg.profiles).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `p${i}`).sort());
    for (let i = 0; i < 20; i++) expect(cfg.profiles[`p${i}`]?.['timeout']).toBe((i + 1) * 1000);
  });

  it('8 parallel token add keep 8 tokens, each readable with its secret', async () => {
    const home = newHome();
    const secret = join(home, 'secret.txt');
    writeFileSync(secret, Buffer.from('a token secret for the lock test').toString('base64'), { mode: 0o600 });
    for (let i = 0; i < 8; i++) expect((await pm(home, ['--profile', `t${i}`, 'config', 'set', 'timeout', '9s'])).exitCode).toBe(0);
    const runs = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        // (Made-up tokens, no exchange: stored without the check.)
        pm(home, ['--profile', `t${i}`, 'token', 'add', '--token-id', `tok-${i}`, '--secret-file', secret, '--skip-check']),
      ),
    );
    for (const r of runs) expect(r.exitCode, r.stderr).toBe(0);
    const cfg = config(home);
    for (let i = 0; i < 8; i++) {
      expect(cfg.profiles[`t${i}`]).toMatchObject({ tokenId: `tok-${i}`, secrets: `t${i}` });
      const file = JSON.parse(readFileSync(join(home, 'secrets', `t${i}.json`), 'utf8')) as { tokenId: string };
      expect(file.tokenId).toBe(`tok-${i}`);
    }
  });

  it('6 parallel init --sandbox keep 6 profiles', async () => {
    const home = newHome();
    const runs = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        pm(home, ['--base-url', sb.current.baseUrl, 'init', '--sandbox', '--yes', '--profile-name', `ini${i}`]),
      ),
    );
    for (const r of runs) expect(r.exitCode, r.stderr).toBe(0);
    const cfg = config(home);
    for (let i = 0; i < 6; i++) expect(cfg.profiles[`ini${i}`]?.['baseUrl']).toBe(sb.current.baseUrl);
  });

  it('a writer that cannot get the lock within 10 s exits 5 and changes nothing', async () => {
    const home = newHome();
    expect((await pm(home, ['--profile', 'a', 'config', 'set', 'timeout', '5s'])).exitCode).toBe(0);
    // A live process (this test runner) holds the lock.
    writeFileSync(join(home, 'run', 'config.lock'), `${process.pid} held-by-test`, { mode: 0o600 });
    const r = await pm(home, ['--profile', 'b', 'config', 'set', 'timeout', '6s']);
    expect(r.exitCode).toBe(5);
    expect(r.stderr).toMatch(new RegExp(`pid ${process.pid}`));
    expect(Object.keys(config(home).profiles)).toEqual(['a']);
  }, 30_000);

  it('a lock left by a dead process is taken over', async () => {
    const home = newHome();
    expect((await pm(home, ['--profile', 'a', 'config', 'set', 'timeout', '5s'])).exitCode).toBe(0);
    const dead = await execa('node', ['-e', 'process.stdout.write(String(process.pid))']);
    writeFileSync(join(home, 'run', 'config.lock'), `${dead.stdout} stale`, { mode: 0o600 });
    const r = await pm(home, ['--profile', 'b', 'config', 'set', 'timeout', '6s']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(Object.keys(config(home).profiles).sort()).toEqual(['a', 'b']);
  });
});

describe('init paces its requests with every other process on the token', () => {
  /** `pm init --sandbox --account partner --profile-name partner` in a new home; the env that uses it. */
  async function initPartner(): Promise<Record<string, string>> {
    const env = { PM_HOME: newHome(), PM_SCRYPT_N: '1024', PM_PASSPHRASE: 'correct horse battery' };
    const init = await runPm(
      ['--base-url', sb.current.baseUrl, 'init', '--sandbox', '--account', 'partner', '--profile-name', 'partner', '--yes'],
      { env },
    );
    expect(init.code, init.stderr).toBe(0);
    return env;
  }

  it('init --sandbox --account partner && partner create draws no 429, three times out of three', async () => {
    // In one process, back to back: nothing but the shared limiter spaces the two commands' requests.
    for (let i = 0; i < 3; i++) {
      const env = await initPartner();
      const create = await runPm(['--verbose', '--profile', 'partner', 'partner', 'create', '--server-wallet', '--name', `k${i}`], { env });
      expect(create.code, create.stderr).toBe(0);
      expect(create.stderr).toMatch(/POST [^ ]*\/profiles\/partner-accounts/);
      expect(create.stderr).not.toMatch(/← #\d+ 429/);
    }
  });

  it('an EOA partner create goes through the transport: traced, paced, proof headers sent', async () => {
    const env = await initPartner();
    const create = await runPm(['--verbose', '--profile', 'partner', 'partner', 'create', '--name', 'eoa-traced'], { env });
    expect(create.code, create.stderr).toBe(0);
    const post = create.stderr.split('\n').find((l) => /→ #\d+ POST [^ ]*\/profiles\/partner-accounts/.test(l)) ?? '';
    expect(post).toMatch(/"x-account":"0x[0-9a-fA-F]{40}"/);
    expect(post).toMatch(/"x-signing-message":"0x/);
    expect(post).toContain('"lmts-signature":"[redacted]"');
    expect(create.stderr).not.toMatch(/← #\d+ 429/);
  });
});
