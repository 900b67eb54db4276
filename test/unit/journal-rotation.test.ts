// The order journal is rotated as it grows and a lookup never reads it whole (issue 14).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Journal } from '../../src/core/trade/journal.js';
import { tempHome } from '../helpers/run.js';

const { home, cleanup } = tempHome();
afterAll(cleanup);

describe('journal rotation and lookups', () => {
  it('rotates past maxBytes, keeps the newest segments, and finds every kept client id', () => {
    const dir = join(home, 'j1');
    const j = new Journal(dir, { maxBytes: 4096, keep: 3 });
    const request = { order: { makerAmount: 1, padding: 'x'.repeat(100) } };
    for (let i = 0; i < 120; i++) {
      j.record({ clientOrderId: `c-${i}`, state: 'pending', marketSlug: 'm', request });
      j.record({ clientOrderId: `c-${i}`, state: 'placed', orderId: `o-${i}` });
    }
    const files = readdirSync(dir);
    expect(files.filter((f) => /^orders\.\d+\.ndjson$/.test(f))).toHaveLength(3);
    expect(files.filter((f) => /^orders\.\d+\.idx\.json$/.test(f))).toHaveLength(3);
    expect(statSync(j.file).size).toBeLessThan(4096 + 400);
    expect(j.lookup('c-119')).toMatchObject({ state: 'placed', orderId: 'o-119' });
    // An older id lives in a segment: found through its index.
    const kept = j.latestAll();
    const oldest = [...kept.keys()].sort((a, b) => Number(a.slice(2)) - Number(b.slice(2)))[0] ?? '';
    expect(Number(oldest.slice(2))).toBeGreaterThan(0); // the oldest segments were dropped
    expect(j.lookup(oldest)).toMatchObject({ state: 'placed', orderId: `o-${oldest.slice(2)}` });
    expect(j.lookup('c-0')).toBeUndefined();
  });

  it('a lookup of a recent client id reads the tail of the file, not the whole of it', () => {
    const dir = join(home, 'j2');
    const j = new Journal(dir);
    const request = { order: { padding: 'y'.repeat(1200) } };
    for (let i = 0; i < 600; i++) j.record({ clientOrderId: `d-${i}`, state: 'placed', orderId: `o-${i}`, request });
    const size = statSync(j.file).size;
    expect(size).toBeGreaterThan(600_000);
    j.bytesRead = 0;
    expect(j.lookup('d-599')).toMatchObject({ orderId: 'o-599' });
    expect(j.bytesRead).toBeLessThan(size / 5);
    // An id a prefix of another is not confused with it.
    expect(j.lookup('d-59')).toMatchObject({ orderId: 'o-59' });
    expect(j.entries({ clientId: 'd-5' })).toHaveLength(1);
    expect(j.entries({ limit: 3 }).map((e) => e.clientOrderId)).toEqual(['d-597', 'd-598', 'd-599']);
  });

  it('a lookup of a new client id parses only the lines record() has not checked yet, and no segment index without that id', () => {
    const dir = join(home, 'j3');
    const j = new Journal(dir, { maxBytes: 300_000, keep: 5 });
    const request = { order: { padding: 'z'.repeat(1200) } };
    // Until two segments are rotated out and the active file holds ~200 KB again.
    const segments = () => readdirSync(dir).filter((f) => /^orders\.\d+\.idx\.json$/.test(f)).length;
    let n = 0;
    do {
      j.record({ clientOrderId: `e-${n}`, state: 'placed', orderId: `o-${n}`, request });
      n++;
    } while (segments() < 2 || !existsSync(j.file) || statSync(j.file).size < 200_000);
    const lines = (readFileSync(j.file, 'utf8').match(/\n/g) ?? []).length;
    expect(lines).toBeGreaterThan(150);
    j.parsed = { lines: 0, indexes: 0 };
    expect(j.lookup('e-new')).toBeUndefined();
    // (At most the 64 KiB record() reads before it notes what it checked: ~50 lines of these.)
    expect(j.parsed.lines).toBeLessThan(60);
    expect(j.parsed.indexes).toBe(0);
    // An id of the active file and one of the oldest kept segment are still found, each by one parse.
    j.parsed = { lines: 0, indexes: 0 };
    expect(j.lookup(`e-${n - 5}`)).toMatchObject({ orderId: `o-${n - 5}` });
    expect(j.parsed.lines).toBeGreaterThan(0); // (the count counts)
    expect(j.parsed.indexes).toBe(0);
    const oldest = [...j.latestAll().keys()].sort((a, b) => Number(a.slice(2)) - Number(b.slice(2)))[0] ?? '';
    j.parsed = { lines: 0, indexes: 0 };
    expect(j.lookup(oldest)).toMatchObject({ orderId: `o-${oldest.slice(2)}` });
    expect(j.parsed.indexes).toBe(1);
  });
});
