// The sandbox's data dir: the server key (what token secrets derive from) lives only in its own
// 0600 file, never in the snapshot or the log; every entry read back is shape-checked, so a
// damaged one is a clear error naming the file and the line or entry (exit 2 from the CLI,
// with `pm sandbox reset` as the way out), while a torn last line is dropped with a warning.
import { cpSync, readFileSync, readdirSync, rmSync, statSync, appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { SandboxHandle } from '../../src/sandbox/index.js';
import { runPm } from '../helpers/run.js';
import { sandboxDirs } from '../helpers/sandbox-dirs.js';

const { tmp, handles, stop } = sandboxDirs('pm-state-');

async function start(dataDir: string): Promise<SandboxHandle> {
  const h = await startSandbox({ port: 0, dataDir, settlement: { minedAfterMs: 5, confirmedAfterMs: 5 } });
  handles.push(h);
  return h;
}

/** Derives a token through the route, as `pm token derive` does. */
async function derive(h: SandboxHandle, label: string): Promise<string> {
  const alice = h.info.accounts.find((a) => a.name === 'alice')!;
  const res = await fetch(`${h.baseUrl}/auth/api-tokens/derive`, {
    method: 'POST',
    headers: { identity: `Bearer ${alice.identityToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ label }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { tokenId: string }).tokenId;
}

const stateFiles = (dir: string): string[] => readdirSync(dir).filter((f) => f !== 'server.key' && f !== 'lock.sock');

describe('server key', () => {
  it('is kept in server.key (0600), never in the snapshot or the log; a restart derives the same secrets', async () => {
    const dir = join(tmp(), 'sandbox');
    const h = await start(dir);
    const tokenId = await derive(h, 'one');
    const key = h.ctx.state.serverKey ?? 'missing';
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    const secret = h.ctx.state.tokens.find((t) => t.tokenId === tokenId)!.secret;
    const grep = (): void => {
      expect(stateFiles(dir).length).toBeGreaterThan(0);
      for (const f of stateFiles(dir)) {
        const text = readFileSync(join(dir, f), 'utf8');
        expect(text, f).not.toContain(key);
        expect(text, f).not.toContain(secret);
      }
    };
    grep(); // the log, as written while running
    await h.snapshot();
    grep(); // the snapshot too
    const kf = join(dir, 'server.key');
    expect(readFileSync(kf, 'utf8').trim()).toBe(key);
    expect(statSync(kf).mode & 0o777).toBe(0o600);
    await stop(h);
    grep(); // after the final snapshot at close
    const b = await start(dir);
    expect(b.ctx.state.tokens.find((t) => t.tokenId === tokenId)?.secret).toBe(secret);
    await derive(b, 'two'); // same key, no new one
    expect(readFileSync(kf, 'utf8').trim()).toBe(key);
  });

  it('an older data dir that kept the key in the state is moved to server.key', async () => {
    const dir = join(tmp(), 'sandbox');
    const h = await start(dir);
    const tokenId = await derive(h, 'old');
    const key = h.ctx.state.serverKey!;
    const secret = h.ctx.state.tokens.find((t) => t.tokenId === tokenId)!.secret;
    await stop(h);
    // As the previous version wrote it: the key inside state.json, no server.key.
    const snap = JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')) as { state: Record<string, unknown> };
    snap.state['serverKey'] = key;
    writeFileSync(join(dir, 'state.json'), JSON.stringify(snap));
    rmSync(join(dir, 'server.key'));
    const b = await start(dir);
    expect(b.ctx.state.tokens.find((t) => t.tokenId === tokenId)?.secret).toBe(secret);
    expect(readFileSync(join(dir, 'server.key'), 'utf8').trim()).toBe(key);
    await stop(b);
    expect(readFileSync(join(dir, 'state.json'), 'utf8')).not.toContain(key);
  });

  it('a missing server.key while derived tokens are live is a clear error naming it', async () => {
    const dir = join(tmp(), 'sandbox');
    const h = await start(dir);
    await derive(h, 'needs-key');
    await stop(h);
    rmSync(join(dir, 'server.key'));
    await expect(startSandbox({ port: 0, dataDir: dir })).rejects.toThrow(/server\.key.*missing.*pm sandbox reset/);
  });
});

describe('damaged entries', () => {
  /** A data dir with a few logged events (seed, two derived tokens), not compacted. */
  async function logged(): Promise<string> {
    const dir = join(tmp(), 'sandbox');
    const h = await start(dir);
    await derive(h, 'a');
    await derive(h, 'b');
    const copy = join(tmp(), 'sandbox');
    cpSync(dir, copy, { recursive: true, filter: (src) => !src.endsWith('lock.sock') });
    await stop(h);
    return copy;
  }

  it('a truncated last line (kill mid-append) is dropped with a warning; everything before it is kept', async () => {
    const dir = await logged();
    const log = join(dir, 'events.ndjson');
    const lines = readFileSync(log, 'utf8').trimEnd().split('\n');
    const tokenLine = lines.findIndex((l) => l.includes('"label":"b"'));
    expect(tokenLine).toBeGreaterThan(0);
    appendFileSync(log, lines[tokenLine]!.slice(0, 40)); // a torn copy of an event, never acknowledged
    const warnings: string[] = [];
    const onWarning = (w: Error): void => void warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    let info;
    try {
      const h = await start(dir);
      info = h.info;
      expect(h.ctx.state.tokens.filter((t) => t.label === 'a' || t.label === 'b')).toHaveLength(2);
    } finally {
      process.off('warning', onWarning);
    }
    // Told through the ready line (pm sandbox start prints it as a warning; with --json it is a
    // field of the ready line), never as a Node process warning on stderr.
    expect(warnings).toEqual([]);
    expect((info.warnings ?? []).join('\n')).toMatch(new RegExp(`torn last line \\(line ${lines.length + 1}\\) of .*events\\.ndjson`));
    expect(readFileSync(log, 'utf8').endsWith('\n')).toBe(true); // cut off, appends go on cleanly
  });

  it('a well-formed line of the wrong shape in the middle is an error naming the file, the line and the field', async () => {
    const dir = await logged();
    const log = join(dir, 'events.ndjson');
    const lines = readFileSync(log, 'utf8').split('\n');
    const i = lines.findIndex((l) => l.includes('"label":"a"'));
    lines[i] = lines[i]!.replace(/"scopes":\[[^\]]*\]/, '"scopes":"trading"');
    writeFileSync(log, lines.join('\n'));
    await expect(startSandbox({ port: 0, dataDir: dir })).rejects.toThrow(
      new RegExp(
        `events\\.ndjson is corrupt \\(line ${i + 1}, event \\d+ \\(token\\.derived\\): token\\.scopes should be a list\\); run \`pm sandbox reset\``,
      ),
    );
  });

  it('an unknown event type, a missing field or a repeated seq are errors too, not silent defaults', async () => {
    const cases: [RegExp, (l: Record<string, unknown>) => void][] = [
      [/type should be a known event type, not "order\.vanished"/, (l) => (l['type'] = 'order.vanished')],
      [/token\.profileId should be an integer/, (l) => delete (l['token'] as Record<string, unknown>)['profileId']],
      [/comes after event/, (l) => (l['seq'] = 1)],
    ];
    for (const [want, damage] of cases) {
      const dir = await logged();
      const log = join(dir, 'events.ndjson');
      const lines = readFileSync(log, 'utf8').split('\n');
      const i = lines.findIndex((l) => l.includes('"label":"a"'));
      const o = JSON.parse(lines[i]!) as Record<string, unknown>;
      damage(o);
      lines[i] = JSON.stringify(o);
      writeFileSync(log, lines.join('\n'));
      await expect(startSandbox({ port: 0, dataDir: dir }), String(want)).rejects.toThrow(want);
    }
  });

  it('a log an older version wrote (whole-record put/del/set events) is refused with pm sandbox reset, not guessed at', async () => {
    for (const legacy of [
      { type: 'put', coll: 'tokens', key: 'tok_x', value: { tokenId: 'tok_x' } },
      { type: 'del', coll: 'profiles', key: '2001' },
      { type: 'set', field: 'nextProfileId', value: 2002 },
      { type: 'deposit', at: 1, profileId: 1001, usdc: { $bigint: '1' } },
    ]) {
      const dir = await logged();
      const log = join(dir, 'events.ndjson');
      const lines = readFileSync(log, 'utf8').trimEnd().split('\n');
      const seq = (JSON.parse(lines[lines.length - 1]!) as { seq: number }).seq + 1;
      appendFileSync(
        log,
        `${JSON.stringify({ ...legacy, seq })}\n${JSON.stringify({ type: 'token.revoked', at: 1, tokenId: 'tok_x', seq: seq + 1 })}\n`,
      );
      await expect(startSandbox({ port: 0, dataDir: dir }), legacy.type).rejects.toThrow(
        new RegExp(
          `events\\.ndjson was written by an older pm \\(line ${lines.length + 1}: a "${legacy.type}" event;.*named events.*\\); run \`pm sandbox reset\``,
        ),
      );
    }
  });

  it('a damaged snapshot entry is named by its path (orders[0].price)', async () => {
    const dir = join(tmp(), 'sandbox');
    const h = await start(dir);
    const alice = h.ctx.state.profiles.find((p) => p.name === 'alice')!;
    const m = h.ctx.state.markets.find((x) => x.slug === 'btc-100k-2026')!;
    const { placeOrder } = await import('../../src/sandbox/place.js');
    const r = placeOrder(h.ctx, {
      ownerId: alice.id,
      marketSlug: m.slug,
      tokenId: m.positionIds![0],
      side: 'BUY',
      orderType: 'GTC',
      price: 100_000n,
      size: 1_000_000n,
      makerAmount: 0n,
      takerAmount: 0n,
      postOnly: false,
      clientOrderId: null,
      feeRateBps: alice.feeRateBps,
      signedOrder: { salt: 1n },
    });
    expect(r.ok).toBe(true);
    await stop(h);
    const file = join(dir, 'state.json');
    const snap = JSON.parse(readFileSync(file, 'utf8')) as { orders: Record<string, unknown>[]; state: Record<string, unknown> };
    const n = snap.orders.length - 1;
    snap.orders[n]!['price'] = 'a lot';
    writeFileSync(file, JSON.stringify(snap));
    await expect(startSandbox({ port: 0, dataDir: dir })).rejects.toThrow(
      new RegExp(`state\\.json is corrupt \\(entry orders\\[${n}\\]\\.price should be a tagged bigint`),
    );
    snap.orders[n]!['price'] = { $bigint: '100000' };
    snap.state['profiles'] = null;
    writeFileSync(file, JSON.stringify(snap));
    await expect(startSandbox({ port: 0, dataDir: dir })).rejects.toThrow(
      /state\.json is corrupt \(entry state\.profiles should be a list\)/,
    );
  });

  it('pm sandbox start on a damaged log exits 2 with the file, the line and pm sandbox reset; no stack trace', async () => {
    const home = tmp();
    const dir = join(home, 'sandbox');
    cpSync(await logged(), dir, { recursive: true });
    const log = join(dir, 'events.ndjson');
    const lines = readFileSync(log, 'utf8').split('\n');
    const i = lines.findIndex((l) => l.includes('"label":"a"'));
    expect(i).toBeGreaterThan(0);
    expect(lines.slice(i + 1).some((l) => l.trim() !== '')).toBe(true); // a middle entry
    lines[i] = lines[i]!.replace(/"scopes":\[[^\]]*\]/, '"scopes":"trading"');
    writeFileSync(log, lines.join('\n'));
    const human = await runPm(['sandbox', 'start', '--port', '0'], { env: { PM_HOME: home } });
    expect(human.code, human.stderr).toBe(2);
    expect(human.stderr).toContain(log);
    expect(human.stderr).toMatch(new RegExp(`line ${i + 1}, event \\d+ \\(token\\.derived\\): token\\.scopes should be a list`));
    expect(human.stderr).toMatch(/pm sandbox reset/);
    expect(human.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(human.stderr).not.toMatch(/looks like a bug/);
    const json = await runPm(['--json', 'sandbox', 'start', '--port', '0'], { env: { PM_HOME: home } });
    expect(json.code).toBe(2);
    const err = (JSON.parse(json.stderr) as { error: { code: string; message: string; hint?: string } }).error;
    expect(err.code).toBe('USAGE');
    expect(err.message).toContain(log);
    expect(err.hint).toMatch(/pm sandbox reset/);
    // The way out it names works: reset, and the next start is seeded afresh.
    expect((await runPm(['sandbox', 'reset', '--yes'], { env: { PM_HOME: home } })).code).toBe(0);
    const fresh = await start(dir);
    expect(fresh.ctx.state.tokens.some((t) => t.label === 'a')).toBe(false);
  });
});
