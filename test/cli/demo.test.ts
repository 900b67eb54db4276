// `pm demo` runs the whole tour, money steps included: positions after a fill, a sale that
// realises PnL, resolve, redeem (once), an allowlisted withdrawal with its exact raw amount.
import { describe, expect, it } from 'vitest';
import { runPm } from '../helpers/run.js';

describe('pm demo', () => {
  it('runs every step, including positions, resolve, redeem and a withdrawal', async () => {
    const r = await runPm(['demo'], { env: { PM_SCRYPT_N: '1024' } });
    expect(r.code, r.stdout.slice(-3000) + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\$ pm positions/);
    expect(r.stdout).toMatch(/\$ pm sandbox resolve btc-100k-2026 yes/);
    expect(r.stdout).toMatch(/btc-100k-2026\s+redeemed/); // piped: a tab-separated table
    expect(r.stdout).toMatch(/Already redeemed/);
    expect(r.stdout).toMatch(/\{"amount":"25500000","destination":"0x000000000000000000000000000000000000bEEF"\}/);
    // The partner tour: a server-wallet child (its id carried into the next steps), ready, traded for, listed.
    const child = /\{"profileId":(\d+),"account":"(0x[0-9a-fA-F]{40})","mode":"server-wallet","displayName":"demo-shop"\}/.exec(r.stdout);
    expect(child, r.stdout.slice(-4000)).not.toBeNull();
    const [, id, address] = child ?? [];
    expect(r.stdout).toContain(`$ pm partner allowances ${id} --retry --wait`);
    expect(r.stdout).toMatch(/ready: allowances 5\/5 confirmed/);
    expect(r.stdout).toMatch(
      new RegExp(
        `\\$ pm order place fed-cut-december buy yes --type fok --amount 10 --on-behalf-of ${id} --delegated\\n[^#]*status\\s+matched`,
      ),
    );
    expect(r.stdout).toMatch(/fed-cut-december\tYES\t[1-9]/);
    expect(r.stdout).toMatch(
      new RegExp(`amount\\s+5 \\(5000000 raw\\)\\ntoken\\s+\\S+\\nfrom\\s+${address}\\nto\\s+0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC`),
    );
    expect(r.stdout).toMatch(new RegExp(`${id}\\t${address}\\tdemo-shop\\tserver wallet`));
    // The watch step: the events of a placed, filled (and settled) and cancelled order, live.
    for (const kind of ['PLACEMENT', 'FILLED', 'MATCHED', 'MINED', 'CANCELLATION'])
      expect(r.stdout).toMatch(new RegExp(`\\[watch\\].*fed-cut-december\\s+${kind}\\b`));
    expect(r.stdout).toMatch(/Done\./);
    // The last lines say how to run pm from a clean clone, where it is not on PATH: npm link
    // first (npx pm would add about a second to every command).
    const tail = r.stdout.trimEnd().split('\n').slice(-5).join('\n');
    expect(tail).toMatch(/^ {2}npm link +# once, in this checkout: puts pm on your PATH/m);
    expect(tail).toMatch(/^ {2}pm sandbox start --detach +#/m);
    expect(tail).not.toMatch(/npx/);
    expect(tail).not.toMatch(/^Done\. Run your own sandbox with: pm sandbox start$/m);
  }, 120_000);
});

describe('pm demo, stopped or asked for JSON', () => {
  it('Ctrl-C exits 130 and says where it stopped (it was exit 1, "demo step N exited 130, expected 0")', async () => {
    const { execa } = await import('execa');
    const p = execa('node', ['bin/pm.js', 'demo'], { env: { PM_SCRYPT_N: '1024' }, reject: false, all: true });
    let seen = '';
    await new Promise<void>((resolve) => {
      p.all?.on('data', (d: Buffer) => {
        seen += d.toString();
        if (/# 3\./.test(seen)) resolve();
      });
      void p.then(() => resolve());
    });
    p.kill('SIGINT');
    const r = await p;
    expect(r.exitCode, r.all?.slice(-2000)).toBe(130);
    expect(r.all).toMatch(/demo interrupted at step \d+/);
    expect(r.all).not.toMatch(/expected 0/);
  }, 60_000);

  it('--json is refused (exit 2): the tour is for people, and stdout would not be JSON', async () => {
    const r = await runPm(['--json', 'demo']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr).error.message).toMatch(/demo/);
  });
});
