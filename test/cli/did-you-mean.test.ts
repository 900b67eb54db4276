// One suggester for commands, flags, profiles and every market argument (issue 33, item 8): each
// typo gets a sensible did-you-mean, ranked by prefix, a part of the name and edit distance, as
// text and as the hint of the --json error. An unknown profile is "not found" (exit 4).
import { describe, expect, it } from 'vitest';
import { didYouMean, suggest } from '../../src/core/suggest.js';
import { accountEnv } from '../helpers/account-env.js';
import { runPm, useTempHomes } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const newHome = useTempHomes();
const env = () => accountEnv(sb.current, 'alice', newHome());

function hintOf(stderr: string): string {
  return (JSON.parse(stderr) as { error: { hint?: string } }).error.hint ?? '';
}

describe('suggest', () => {
  it('ranks a prefix, then a part of a hyphenated name, then a few edits; nothing far', () => {
    expect(suggest('--stdin', ['--secret-stdin', '--name', '--secret-file'])).toEqual(['--secret-stdin']);
    expect(suggest('sandbx', ['sandbox', 'prod', 'alice'])).toEqual(['sandbox']);
    expect(suggest('btc-100k-2062', ['btc-100k-2026', 'eth-flip-btc', 'sol-500-2026'])).toEqual(['btc-100k-2026']);
    expect(suggest('foo', ['book', 'prices', 'orders', 'positions', 'markets', 'tx'])).toEqual([]);
    expect(suggest('pric', ['prices', 'positions'])).toEqual(['prices']);
    expect(suggest('no-such-market', ['btc-100k-2026', 'eth-flip-btc'])).toEqual([]);
    expect(didYouMean(['a', 'b', 'c'])).toBe('Did you mean a, b or c?');
    expect(didYouMean([])).toBeUndefined();
  });
});

describe('did-you-mean everywhere', () => {
  const cases: { name: string; argv: string[]; code: number; hint: RegExp | null }[] = [
    { name: 'order list --market', argv: ['order', 'list', '--market', 'btc-100k-2062'], code: 4, hint: /btc-100k-2026/ },
    { name: 'order cancel --all', argv: ['order', 'cancel', '--all', 'btc-100k-2062'], code: 4, hint: /btc-100k-2026/ },
    { name: 'watch prices', argv: ['watch', 'prices', 'btc-100k-2062'], code: 4, hint: /btc-100k-2026/ },
    { name: 'watch prices nosuch-market', argv: ['watch', 'prices', 'nosuch-market'], code: 4, hint: /pm markets list/ },
    { name: 'token add --stdin', argv: ['token', 'add', '--stdin'], code: 2, hint: /--secret-stdin/ },
    { name: 'watch foo', argv: ['watch', 'foo'], code: 2, hint: null },
    { name: 'watch pric', argv: ['watch', 'pric'], code: 2, hint: /prices/ },
    { name: 'ordr list', argv: ['ordr', 'list'], code: 2, hint: /order/ },
    { name: 'markets list --limt', argv: ['markets', 'list', '--limt', '3'], code: 2, hint: /--limit/ },
    { name: 'markets show no-such-market', argv: ['markets', 'show', 'no-such-market'], code: 4, hint: /pm markets list/ },
    { name: 'markets show btc-100k-2062', argv: ['markets', 'show', 'btc-100k-2062'], code: 4, hint: /btc-100k-2026/ },
  ];
  for (const c of cases) {
    it(`${c.name}: exit ${c.code}, ${c.hint ? `hint ${c.hint}` : 'no odd guess'} (text and --json)`, async () => {
      const e = env();
      const json = await runPm(['--json', ...c.argv], { env: e });
      expect(json.code, json.stderr).toBe(c.code);
      const hint = hintOf(json.stderr);
      if (c.hint) expect(hint).toMatch(c.hint);
      else expect(hint).not.toMatch(/did you mean/i);
      const text = await runPm(c.argv, { env: e });
      expect(text.code).toBe(c.code);
      if (c.hint) expect(text.stderr).toMatch(c.hint);
      else expect(text.stderr).not.toMatch(/did you mean/i);
      if (c.name === 'markets show no-such-market') expect(hint).not.toMatch(/eth-flip-btc/);
    });
  }

  it('--profile sandbx: exit 4 (not found) naming the profile it meant', async () => {
    const home = newHome();
    const base = { PM_HOME: home };
    expect((await runPm(['config', 'set', 'base-url', sb.current.baseUrl, '--profile', 'sandbox'], { env: base })).code).toBe(0);
    const r = await runPm(['--json', '--profile', 'sandbx', 'markets', 'list'], { env: base });
    expect(r.code, r.stderr).toBe(4);
    expect(hintOf(r.stderr)).toMatch(/Did you mean sandbox\?/);
    const t = await runPm(['--profile', 'sandbx', 'markets', 'list'], { env: base });
    expect(t.code).toBe(4);
    expect(t.stderr).toMatch(/no profile named "sandbx"/);
  });
});
