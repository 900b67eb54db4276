// How a table gives way on a narrow terminal (src/cli/output.ts fitWidths): declared columns in
// their order and only as far as needed; then the widest left-aligned columns; a right-aligned
// column (money, prices, shares) is never cut.
import { describe, expect, it } from 'vitest';
import { type Column, cutFirst, fitWidths, hideFirst } from '../../src/cli/output.js';

const cols: Column[] = [
  { header: 'MARKET' },
  { header: 'ID', fit: cutFirst(2, 8) },
  { header: 'NOTE', fit: hideFirst(1) },
  { header: 'USD', align: 'right' },
];

describe('fitWidths', () => {
  it('wide enough: every column whole', () => {
    expect(fitWidths(cols, [10, 36, 20, 12], 200, 2)).toEqual([10, 36, 20, 12]);
  });
  it('hides, then cuts, in the declared order and only as far as needed', () => {
    // 10+36+20+12 + 3 gaps = 84: hiding NOTE (22) is enough at 80.
    expect(fitWidths(cols, [10, 36, 20, 12], 80, 2)).toEqual([10, 36, null, 12]);
    // At 50: NOTE hidden, ID cut by what is still over (62 - 50 = 12).
    expect(fitWidths(cols, [10, 36, 20, 12], 50, 2)).toEqual([10, 24, null, 12]);
  });
  it('narrower still: left-aligned columns give way, the money column never', () => {
    const w = fitWidths(cols, [10, 36, 20, 12], 30, 2);
    expect(w[3]).toBe(12);
    expect(w[2]).toBeNull();
    expect((w[0] ?? 0) + (w[1] ?? 0) + 12 + 4).toBeLessThanOrEqual(30);
  });
});
