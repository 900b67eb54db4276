import { appendFileSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Journal } from '../../src/core/trade/journal.js';
import { tempHome } from '../helpers/run.js';

const { home, cleanup } = tempHome();
afterAll(cleanup);

describe('order journal', () => {
  it('appends privately, returns the latest state per client id, and survives a torn line', () => {
    const j = new Journal(join(home, 'journal'));
    expect(j.lookup('a')).toBeUndefined();
    j.record({ clientOrderId: 'a', state: 'pending', marketSlug: 'm', request: { x: 1 } });
    j.record({ clientOrderId: 'ab', state: 'pending' });
    j.record({ clientOrderId: 'a', state: 'placed', orderId: 'o-1' });
    appendFileSync(j.file, '{"ts":"2026-01-01","clientOrderId":"a","state":"fai'); // a crash mid-write
    expect(j.lookup('a')).toMatchObject({ state: 'placed', orderId: 'o-1' });
    expect(j.lookup('ab')).toMatchObject({ state: 'pending' });
    j.record({ clientOrderId: 'a', state: 'unknown' }); // starts a fresh line after the torn one
    expect(j.lookup('a')).toMatchObject({ state: 'unknown' });
    expect(statSync(j.file).mode & 0o777).toBe(0o600);
    expect(statSync(join(home, 'journal')).mode & 0o777).toBe(0o700);
  });

  it('a torn line cut anywhere is skipped; a line that is no entry is damage, for lookups, listings and appends alike', () => {
    const full = JSON.stringify({
      ts: '2026-01-01T00:00:00.000Z',
      clientOrderId: 't',
      state: 'pending',
      request: { n: 12, ok: true, a: [1, 2] },
    });
    for (let cut = 1; cut < full.length; cut++) {
      const j = new Journal(join(home, `torn-${cut}`));
      j.record({ clientOrderId: 'a', state: 'placed', orderId: 'o-1' });
      appendFileSync(j.file, full.slice(0, cut));
      j.record({ clientOrderId: 'b', state: 'placed', orderId: 'o-2' });
      expect([...j.latestAll().keys()], full.slice(0, cut)).toEqual(['a', 'b']);
    }
    for (const bad of ['garbage', '42', '[]', 'null', '{"ts":"x"}', '{"x', ' ', '{"ts":"x","clientOrderId":"c","state":"placed"} x']) {
      const j = new Journal(join(home, `bad-${Buffer.from(bad).toString('hex')}`));
      j.record({ clientOrderId: 'a', state: 'placed', orderId: 'o-1' });
      appendFileSync(j.file, `${bad}\n`);
      const before = readFileSync(j.file, 'utf8');
      expect(() => j.latestAll(), bad).toThrow(/damaged at line 2/);
      expect(() => j.lookup('a'), bad).toThrow(/damaged at line 2/);
      expect(() => j.record({ clientOrderId: 'b', state: 'pending' }), bad).toThrow(/damaged at line 2/);
      expect(readFileSync(j.file, 'utf8')).toBe(before);
    }
  });

  it('an append re-reads only what was added since it last checked, yet still sees damage written anywhere', () => {
    const j = new Journal(join(home, 'noted'));
    const request = { padding: 'z'.repeat(1000) };
    for (let i = 0; i < 100; i++) j.record({ clientOrderId: `n-${i}`, state: 'pending', request });
    const size = statSync(j.file).size;
    expect(size).toBeGreaterThan(100_000);
    j.bytesRead = 0;
    j.record({ clientOrderId: 'n-100', state: 'placed', orderId: 'o' });
    expect(j.bytesRead).toBeLessThan(70_000);
    // Damage that changes the file's length, wherever it sits, is read before the next append.
    const text = readFileSync(j.file, 'utf8');
    const lines = text.split('\n').length - 1;
    const again = () => new Journal(join(home, 'noted')).record({ clientOrderId: 'x', state: 'pending' });
    writeFileSync(j.file, `${text}garbage\n`);
    expect(again).toThrow(new RegExp(`damaged at line ${lines + 1}\\b`));
    writeFileSync(j.file, `garbage\n${text}`);
    expect(again).toThrow(/damaged at line 1\b/);
    writeFileSync(j.file, 'garbage\n');
    expect(again).toThrow(/damaged at line 1\b/);
    expect(readFileSync(j.file, 'utf8')).toBe('garbage\n');
  });
});
