// The event log's capture of records changed outside the reducer (tokens, profiles, API keys,
// identity tokens): a commit skips the records whose fields are as last checked, so it must still
// log every change — in place, inside an array, a deletion — and nothing for unchanged records.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { LogEntry, SandboxHandle } from '../../src/sandbox/index.js';

const handles: SandboxHandle[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const h of handles.splice(0)) await h.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function start(dataDir: string): Promise<SandboxHandle> {
  const h = await startSandbox({ port: 0, dataDir });
  handles.push(h);
  return h;
}

async function derive(h: SandboxHandle, label: string): Promise<string> {
  const alice = h.info.accounts.find((a) => a.name === 'alice');
  const res = await fetch(`${h.baseUrl}/auth/api-tokens/derive`, {
    method: 'POST',
    headers: { identity: `Bearer ${alice?.identityToken ?? ''}`, 'content-type': 'application/json' },
    body: JSON.stringify({ label }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { tokenId: string }).tokenId;
}

it('logs in-place, in-array and deleting changes of records, and nothing for unchanged ones', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pm-records-'));
  dirs.push(dir);
  const a = await start(dir);
  const ids = [];
  for (let i = 0; i < 30; i++) ids.push(await derive(a, `t${i}`));
  const entries: LogEntry[] = [];
  a.subscribe(a.seq() + 1, (e) => entries.push(e));
  // Commits with nothing changed log nothing (a token's lastUsedAt alone is no change).
  const tok = (id: string) => a.ctx.state.tokens.find((t) => t.tokenId === id);
  for (let i = 0; i < 5; i++) {
    const t = tok(ids[i % ids.length] as string);
    if (t) t.lastUsedAt = new Date(1_800_000_000_000 + i).toISOString();
    a.ctx.persist();
  }
  expect(entries).toEqual([]);
  // In place: a label; inside an array: a scope pushed; a deletion; a new profile field.
  const t3 = tok(ids[3] as string);
  const t4 = tok(ids[4] as string);
  if (!t3 || !t4) throw new Error('tokens');
  t3.label = 'renamed';
  a.ctx.persist();
  t4.scopes.push('withdrawal');
  a.ctx.persist();
  a.ctx.state.tokens.splice(a.ctx.state.tokens.indexOf(tok(ids[5] as string) as never), 1);
  a.ctx.persist();
  const bob = a.ctx.state.profiles.find((p) => p.name === 'bob');
  if (!bob) throw new Error('bob');
  bob.displayName = 'Bob the maker';
  a.ctx.persist();
  expect(entries.map((e) => `${e.type}:${'key' in e ? e.key : ''}`)).toEqual([
    `put:${ids[3]}`,
    `put:${ids[4]}`,
    `del:${ids[5]}`,
    'put:1002',
  ]);
  // Unchanged again: nothing more.
  a.ctx.persist();
  expect(entries).toHaveLength(4);
  await a.close();
  handles.splice(0);
  const b = await start(dir);
  const t = (id: string) => b.ctx.state.tokens.find((x) => x.tokenId === id);
  expect(t(ids[3] as string)?.label).toBe('renamed');
  expect(t(ids[4] as string)?.scopes).toEqual(['trading', 'withdrawal']);
  expect(t(ids[5] as string)).toBeUndefined();
  expect(t(ids[6] as string)?.label).toBe('t6');
  expect(b.ctx.state.profiles.find((p) => p.name === 'bob')?.displayName).toBe('Bob the maker');
});
