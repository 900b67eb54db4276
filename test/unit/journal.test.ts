import { appendFileSync, statSync } from 'node:fs';
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
});
