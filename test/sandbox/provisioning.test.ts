// The sandbox provisions a server wallet's allowances itself, as the real backend does: a short
// while after the sub-account is created (provisionDelayMs) each target goes missing →
// submitted → confirmed, every step a logged `allowances` event; the failure switch can make a
// target fail, which `pm partner allowances --retry` then submits. Through HTTP and the CLI.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type LogEntry, type SandboxHandle } from '../../src/sandbox/index.js';
import type { AllowanceTarget } from '../../src/sandbox/types.js';
import { marketOrder } from '../helpers/orders.js';
import { runPm, tempHome } from '../helpers/run.js';
import { signedFetch } from '../helpers/signed.js';

let sb: SandboxHandle;
const { home, cleanup } = tempHome();
beforeAll(async () => {
  sb = await startSandbox({ port: 0, dataDir: null, provisionDelayMs: 200 });
  await admin('faults', { rateLimit: false });
  await admin('allowances', { confirmAfterMs: 150, lockMs: 0, retryMax: 50, failures: [] });
});
afterAll(async () => {
  await sb.close();
  cleanup();
});

async function admin(path: string, body: unknown): Promise<Record<string, unknown>> {
  const r = await fetch(`${sb.baseUrl}/__sandbox/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(r.status).toBe(200);
  return (await r.json()) as Record<string, unknown>;
}

const partner = () => {
  const a = sb.info.accounts.find((x) => x.name === 'partner');
  if (!a) throw new Error('partner');
  return a;
};

const signed = (method: 'GET' | 'POST', target: string, body?: unknown) => signedFetch(sb.baseUrl, partner().token, method, target, body);

async function eventually<T>(fn: () => Promise<T>, ok: (v: T) => boolean, what: string, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: last ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

type View = { ready: boolean; summary: Record<string, number>; targets: AllowanceTarget[] };
const view = async (id: number): Promise<View> => (await signed('GET', `/profiles/partner-accounts/${id}/allowances`)).json as View;

/** The statuses of every logged allowance step of one wallet, in order. */
function steps(log: readonly LogEntry[], profileId: number): string[][] {
  return log.flatMap((e) => (e.type === 'allowances' && e.profileId === profileId ? [e.targets.map((t) => t.status)] : []));
}

describe('allowance provisioning (HTTP)', () => {
  it('each target goes missing → submitted → confirmed by itself, each step a logged event; a delegated order then passes', async () => {
    const log: LogEntry[] = [];
    const off = sb.subscribe(sb.seq() + 1, (e) => log.push(e));
    const created = await signed('POST', '/profiles/partner-accounts', { displayName: 'auto-1', createServerWallet: true });
    expect(created.status).toBe(201);
    const id = Number(created.json['profileId']);
    const ready = await eventually(
      () => view(id),
      (v) => v.ready,
      'the wallet to be ready',
    );
    off();
    expect(ready.summary).toEqual({ total: 5, confirmed: 5, missing: 0, submitted: 0, failed: 0 });
    const s = steps(log, id);
    expect(s[0]).toEqual(Array(5).fill('missing'));
    expect(s[1]).toEqual(Array(5).fill('submitted'));
    expect(s[s.length - 1]).toEqual(Array(5).fill('confirmed'));
    // Every target moved forward only, never back.
    const rank = { missing: 0, failed: 0, submitted: 1, confirmed: 2 } as Record<string, number>;
    for (let i = 1; i < s.length; i++) s[i]?.forEach((st, j) => expect(rank[st]).toBeGreaterThanOrEqual(rank[s[i - 1]?.[j] ?? ''] ?? 0));
    // Nobody asked for a retry: the sandbox did it itself.
    const sim = (await (await fetch(`${sb.baseUrl}/__sandbox/allowances`)).json()) as { answered: { profileId: number }[] };
    expect(sim.answered.filter((a) => a.profileId === id)).toEqual([]);
    // The documented partner flow: fund, wait, delegated order.
    await admin('fund', { profileId: id, amount: '50000000' });
    const order = await runPm(
      ['--json', ...marketOrder('btc-100k-2026', 'buy', 'yes', 'fok', '5'), '--delegated', '--on-behalf-of', String(id)],
      { env: partnerEnv() },
    );
    expect(order.code, order.stderr).toBe(0);
  });

  it('the delay is a setting: GET/POST /__sandbox/allowances provisionDelayMs', async () => {
    expect((await admin('allowances', { provisionDelayMs: 5000 }))['provisionDelayMs']).toBe(5000);
    try {
      const created = await signed('POST', '/profiles/partner-accounts', { displayName: 'slow-1', createServerWallet: true });
      const id = Number(created.json['profileId']);
      await new Promise((r) => setTimeout(r, 600));
      expect((await view(id)).summary).toMatchObject({ missing: 5 }); // not yet: 5 s
    } finally {
      await admin('allowances', { provisionDelayMs: 200 });
    }
    const bad = await fetch(`${sb.baseUrl}/__sandbox/allowances`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ provisionDelayMs: -1 }),
    });
    expect(bad.status).toBe(400);
  });

  it('a failure switch makes one target fail at provisioning; the retry route then submits it', async () => {
    await admin('allowances', { failures: [{ label: 'ctf:negrisk-adapter', errorCode: 'PRIVY_SPONSORSHIP_UNAVAILABLE', times: 1 }] });
    const created = await signed('POST', '/profiles/partner-accounts', { displayName: 'auto-fail', createServerWallet: true });
    const id = Number(created.json['profileId']);
    const v = await eventually(
      () => view(id),
      (x) => x.summary['confirmed'] === 4 && x.summary['failed'] === 1,
      'four confirmed, one failed',
    );
    expect(v.ready).toBe(false);
    expect(v.targets.find((t) => t.label === 'ctf:negrisk-adapter')).toMatchObject({
      status: 'failed',
      retryable: true,
      errorCode: 'PRIVY_SPONSORSHIP_UNAVAILABLE',
    });
    const r = await signed('POST', `/profiles/partner-accounts/${id}/allowances/retry`, {});
    expect(r.status).toBe(200);
    expect((r.json as View).targets.find((t) => t.label === 'ctf:negrisk-adapter')?.status).toBe('submitted');
    expect(
      (
        await eventually(
          () => view(id),
          (x) => x.ready,
          'ready after the retry',
        )
      ).summary['confirmed'],
    ).toBe(5);
  });

  it('a wallet created but not provisioned before a stop is provisioned after the restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pm-provision-'));
    try {
      let s = await startSandbox({ port: 0, dataDir: dir, provisionDelayMs: 3_600_000 });
      const tok = s.info.accounts.find((a) => a.name === 'partner')?.token;
      if (!tok) throw new Error('partner');
      const created = await signedFetch(s.baseUrl, tok, 'POST', '/profiles/partner-accounts', { createServerWallet: true });
      const id = Number(created.json['profileId']);
      expect(s.ctx.state.allowances?.[String(id)]?.every((t) => t.status === 'missing')).toBe(true);
      await s.close();
      s = await startSandbox({ port: 0, dataDir: dir, provisionDelayMs: 50 });
      try {
        await eventually(
          async () => s.ctx.state.allowances?.[String(id)]?.map((t) => t.status) ?? [],
          (st) => st.length === 5 && st.every((x) => x === 'confirmed'),
          'provisioned after the restart',
        );
      } finally {
        await s.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

function partnerEnv(): Record<string, string> {
  const tok = partner().token;
  return {
    PM_HOME: home,
    PM_BASE_URL: sb.baseUrl,
    PM_TOKEN_ID: tok.tokenId,
    PM_TOKEN_SECRET: tok.secret,
    PM_PACE: 'off',
  };
}

describe('allowance provisioning (CLI)', () => {
  const pm = (...argv: string[]) => runPm(argv, { env: partnerEnv() });

  it('pm partner create --server-wallet, then pm partner allowances shows it ready after a short wait', async () => {
    const c = await pm('--json', 'partner', 'create', '--server-wallet', '--name', 'cli-auto');
    expect(c.code, c.stderr).toBe(0);
    const id = c.json<{ profileId: number }>().profileId;
    const shown = await eventually(
      () => pm('--json', 'partner', 'allowances', String(id)),
      (r) => r.code === 0 && r.json<{ ready: boolean }>().ready,
      'pm partner allowances to show ready',
    );
    expect(shown.json()).toMatchObject({ ready: true, summary: { total: 5, confirmed: 5, missing: 0 } });
  });

  it('a target the switch failed at provisioning is submitted by pm partner allowances --retry --wait', async () => {
    // Every submission of that target fails until this wallet's has: a wallet another test made
    // may be provisioned meanwhile (a loaded machine) and would take a one-time failure.
    await admin('allowances', { failures: [{ label: 'usdc:ctf-exchange', errorCode: 'PRIVY_SUBMISSION_FAILED', times: 1000 }] });
    const c = await pm('--json', 'partner', 'create', '--server-wallet', '--name', 'cli-fail');
    const id = c.json<{ profileId: number }>().profileId;
    await eventually(
      () => pm('--json', 'partner', 'allowances', String(id)),
      (r) => r.code === 0 && r.json<{ summary: { failed: number; confirmed: number } }>().summary.failed === 1,
      'the failed target',
    );
    await admin('allowances', { failures: [] });
    const retried = await pm('--json', 'partner', 'allowances', String(id), '--retry', '--wait', '--wait-timeout', '20s');
    expect(retried.code, retried.stderr).toBe(0);
    expect(retried.json()).toMatchObject({ ready: true, summary: { confirmed: 5, failed: 0 } });
  });
});
