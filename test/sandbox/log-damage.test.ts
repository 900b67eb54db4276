// What the sandbox reads back from its data dir (issue 30): only a last line without its newline
// is a torn append (dropped with a warning); a complete line that cannot be read is damage
// (refuse to start, naming the file and the line); a snapshot's tagged digit strings are read
// as strictly as the log's.
import { cpSync, readFileSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { SandboxHandle } from '../../src/sandbox/index.js';
import { hmac, seeded, send, signedOrderBody, unpaced } from '../helpers/http.js';
import { sandboxDirs } from '../helpers/sandbox-dirs.js';

const { tmp, handles, stop } = sandboxDirs('pm-once-');

async function start(dataDir: string | null = null): Promise<SandboxHandle> {
  const h = await startSandbox({ port: 0, dataDir, settlement: { minedAfterMs: 5, confirmedAfterMs: 5 } });
  handles.push(h);
  await unpaced(h);
  return h;
}

describe('the log: torn is only a line without its newline', () => {
  async function logged(): Promise<string> {
    const dir = join(tmp(), 'sandbox');
    const h = await start(dir);
    const alice = seeded(h, 'alice');
    const raw = JSON.stringify(await signedOrderBody(h, alice, { slug: 'btc-100k-2026', price: 0.3, shares: 2_000_000n }));
    expect((await send(h, 'POST', '/orders', hmac(alice, 'POST', '/orders', raw), raw)).status).toBe(201);
    const copy = join(tmp(), 'sandbox');
    cpSync(dir, copy, { recursive: true, filter: (src) => !src.endsWith('lock.sock') });
    await stop(h);
    return copy;
  }

  it('a complete (newline-terminated) last line that cannot be read refuses to start, naming the file and the line', async () => {
    const dir = await logged();
    const log = join(dir, 'events.ndjson');
    const lines = readFileSync(log, 'utf8').trimEnd().split('\n');
    const last = lines[lines.length - 1] ?? '';
    // The acknowledged last line, damaged in the middle but still ending in its newline.
    lines[lines.length - 1] = `${last.slice(0, 30)}#${last.slice(31)}`;
    writeFileSync(log, `${lines.join('\n')}\n`);
    await expect(startSandbox({ port: 0, dataDir: dir })).rejects.toThrow(
      new RegExp(`events\\.ndjson is corrupt \\(line ${lines.length}: .*\\); run \`pm sandbox reset\``),
    );
    expect(readFileSync(log, 'utf8').split('\n')).toHaveLength(lines.length + 1); // nothing cut off
  });

  it('a last line without its newline is torn: dropped with a warning', async () => {
    const dir = await logged();
    const log = join(dir, 'events.ndjson');
    const lines = readFileSync(log, 'utf8').trimEnd().split('\n');
    appendFileSync(log, (lines[lines.length - 1] ?? '').slice(0, 50));
    const h = await start(dir);
    expect((h.info.warnings ?? []).join('\n')).toMatch(new RegExp(`torn last line \\(line ${lines.length + 1}\\)`));
  });

  it('a whole line without its newline that happens to parse is torn too (its newline never reached the disk)', async () => {
    const dir = await logged();
    const log = join(dir, 'events.ndjson');
    const text = readFileSync(log, 'utf8');
    const lines = text.trimEnd().split('\n');
    writeFileSync(log, text.slice(0, -1));
    const h = await start(dir);
    expect((h.info.warnings ?? []).join('\n')).toMatch(new RegExp(`torn last line \\(line ${lines.length}\\)`));
  });

  it('a garbled digit string in the log is damage too', async () => {
    const dir = await logged();
    const log = join(dir, 'events.ndjson');
    const lines = readFileSync(log, 'utf8').trimEnd().split('\n');
    const i = lines.findIndex((l) => l.includes('"order.placed"'));
    lines[i] = (lines[i] ?? '').replace(/"\$bigint":"(\d+)"/, '"$bigint":"0x$1"');
    writeFileSync(log, `${lines.join('\n')}\n`);
    await expect(startSandbox({ port: 0, dataDir: dir })).rejects.toThrow(new RegExp(`events\\.ndjson is corrupt \\(line ${i + 1}`));
  });
});

describe('the snapshot is read as strictly as the log', () => {
  for (const garbled of ['', ' 12', '0x1F', '+5', '1e3']) {
    it(`a tagged bigint of ${JSON.stringify(garbled)} refuses to start, naming the file`, async () => {
      const dir = join(tmp(), 'sandbox');
      await stop(await start(dir));
      const file = join(dir, 'state.json');
      const text = readFileSync(file, 'utf8');
      const damaged = text.replace(/"\$bigint":"\d+"/, `"$bigint":${JSON.stringify(garbled)}`);
      expect(damaged).not.toBe(text);
      writeFileSync(file, damaged);
      await expect(startSandbox({ port: 0, dataDir: dir })).rejects.toThrow(/state\.json is corrupt .*pm sandbox reset/);
    });
  }
});
