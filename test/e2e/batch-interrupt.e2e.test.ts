// Ctrl-C during a batch: stop sending at once, wait only for requests on the wire, list what
// was placed and what was not, exit 130; running the same command again places exactly the rest.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { tempHome } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const { home, cleanup } = tempHome();
afterAll(cleanup);

describe('Ctrl-C during a batch', () => {
  it('exits 130 promptly listing placed and unsent lines, and a re-run places exactly the rest', async () => {
    const alice = sb.current.info.accounts.find((a) => a.name === 'alice');
    if (!alice) throw new Error('alice');
    const env = {
      PM_HOME: home,
      PM_BASE_URL: sb.current.baseUrl,
      PM_TOKEN_ID: alice.token.tokenId,
      PM_TOKEN_SECRET: alice.token.secret,
      PM_PRIVATE_KEY: alice.privateKey,
      CI: '1',
    };
    const file = join(home, 'thirty.ndjson');
    const lines = Array.from({ length: 30 }, (_, i) => ({
      market: 'gpt-6-release-2026',
      side: 'buy',
      outcome: 'yes',
      price: (0.1 + i / 1000).toFixed(3),
      size: '1',
    }));
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n'));

    const child = execa('node', ['bin/pm.js', '--json', 'order', 'place', '--file', file], {
      env,
      stdin: 'ignore',
      reject: false,
      buffer: true,
    });
    // Wait for a few placed lines (the per-token pace is one order per 300 ms), then Ctrl-C.
    let out = '';
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no output: ${out}`)), 15_000);
      child.stdout?.on('data', (c: Buffer) => {
        out += c.toString();
        if (out.split('\n').filter(Boolean).length >= 3) {
          clearTimeout(t);
          resolve();
        }
      });
    });
    const t0 = Date.now();
    child.kill('SIGINT');
    const r = await child;
    const ms = Date.now() - t0;
    expect(r.exitCode).toBe(130);
    expect(ms).toBeLessThan(5000); // promptly: the 27 lines left would take 8 s at the per-token pace
    const results = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { line: number; ok: boolean; clientOrderId: string; sent?: string; error?: { code: string } });
    expect(results).toHaveLength(30); // every line has a result: placed, or not sent
    const placed = results.filter((x) => x.ok);
    const notSent = results.filter((x) => !x.ok);
    expect(placed.length).toBeGreaterThanOrEqual(3);
    expect(placed.length).toBeLessThan(30);
    // Lines not sent say so; a line whose request was on the wire when Ctrl-C came may be
    // "unknown" (its lookup was interrupted) — the re-run looks it up before sending.
    expect(
      notSent.every((x) => x.sent === 'no' || x.sent === 'unknown'),
      r.stdout,
    ).toBe(true);
    expect(notSent.filter((x) => x.sent === 'no').length, r.stdout).toBeGreaterThan(0);
    const err = JSON.parse(r.stderr.trim().split('\n').at(-1) ?? '') as { error: { code: string; message: string; details: string } };
    expect(err.error.code).toBe('INTERRUPTED');
    expect(err.error.message).toMatch(new RegExp(`${placed.length} of 30 lines placed`));
    expect(err.error.details).toMatch(/placed: lines? /);
    expect(err.error.details).toMatch(/not sent: lines? /);
    const onServer = () =>
      sb.current.ctx.state.orders.filter(
        (o) => o.ownerId === alice.profileId && o.marketSlug === 'gpt-6-release-2026' && o.clientOrderId?.startsWith('pmb-'),
      );
    const unknown = notSent.filter((x) => x.sent === 'unknown').length;
    expect(onServer().length).toBeGreaterThanOrEqual(placed.length);
    expect(onServer().length).toBeLessThanOrEqual(placed.length + unknown);

    const again = await execa('node', ['bin/pm.js', '--json', 'order', 'place', '--file', file], { env, stdin: 'ignore', reject: false });
    expect(again.exitCode, again.stderr).toBe(0);
    const second = again.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { ok: boolean; skipped?: boolean; clientOrderId: string });
    expect(second.filter((x) => x.skipped)).toHaveLength(placed.length);
    expect(second.filter((x) => x.ok && !x.skipped)).toHaveLength(30 - placed.length);
    expect(second.every((x) => x.ok)).toBe(true);
    const ids = onServer().map((o) => o.clientOrderId);
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
  }, 40_000);
});
