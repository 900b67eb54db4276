// The order journal is rotated as it grows and a lookup never reads it whole (issue 14).
import { readdirSync, statSync } from 'node:fs';
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
});
