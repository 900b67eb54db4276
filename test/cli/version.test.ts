// pm version (as gh and cast have it): the version, Node, the platform and the commit the build
// was made from (dist/build-info.json, written by scripts/build.mjs; "unknown" outside git).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { runPm, tempHome } from '../helpers/run.js';

const { home, cleanup } = tempHome();
afterAll(cleanup);
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
const built = JSON.parse(readFileSync('dist/build-info.json', 'utf8')) as { commit: string };
const expected = {
  version: pkg.version,
  node: process.versions.node,
  platform: `${process.platform}-${process.arch}`,
  commit: built.commit,
};

describe('pm version', () => {
  it('the build records the commit it was made from', () => {
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
    expect(built.commit, 'dist/ was built from another commit: npm run build').toBe(head);
  });

  it('--json gives {version, node, platform, commit}, in-process and from the bundle', async () => {
    const r = await runPm(['--json', 'version'], { env: { PM_HOME: home } });
    expect(r.code).toBe(0);
    expect(r.json()).toEqual(expected);
    const spawned = execFileSync(process.execPath, ['bin/pm.js', 'version', '--json'], {
      encoding: 'utf8',
      env: { ...process.env, PM_HOME: home },
    });
    expect(JSON.parse(spawned)).toEqual(expected);
  });

  it('prints one line per fact on a terminal', async () => {
    const r = await runPm(['version'], { env: { PM_HOME: home } });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      `pm ${expected.version}\ncommit    ${expected.commit}\nnode      ${expected.node}\nplatform  ${expected.platform}\n`,
    );
  });
});
