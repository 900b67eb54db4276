// CI unset, empty, "0" or "false" is not CI (as CI tools and libraries read it): pm prompts on a
// terminal. Before, CI=0 and CI=false counted as CI, and a terminal user was refused a prompt.
import { expect, it } from 'vitest';
import { KEY, runInPty } from '../helpers/pty.js';
import { runPm, useTempHomes } from '../helpers/run.js';

const newHome = useTempHomes();

for (const [ci, prompts] of [
  ['0', true],
  ['false', true],
  ['FALSE', true],
  ['1', false],
  ['true', false],
] as const)
  it(`CI=${ci} on a terminal: ${prompts ? 'pm asks' : 'pm never prompts (exit 2)'}`, async () => {
    const home = newHome();
    const env = { PM_HOME: home, PM_PASSPHRASE: 'pass-phrase-1', PM_SCRYPT_N: '1024' };
    expect((await runPm(['wallet', 'create', 'w1'], { env })).code).toBe(0);
    const { CI: _ci, ...rest } = process.env;
    const { code, screen } = await runInPty(
      ['node', 'bin/pm.js', 'wallet', 'remove', 'w1'],
      prompts ? [{ waitFor: 'Go ahead?', send: `n${KEY.enter}` }] : [],
      { ...rest, ...env, CI: ci },
    );
    expect(code, screen).toBe(2);
    if (prompts) expect(screen).toMatch(/declined/);
    else expect(screen).toMatch(/not running in a terminal/);
  });
