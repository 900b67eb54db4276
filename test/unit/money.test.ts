import { describe, expect, it } from 'vitest';
import { formatUnits, parseUnits, priceFromWire, rawFromWire } from '../../src/core/money.js';
import { ValidationError } from '../../src/core/errors.js';

describe('money', () => {
  it('parses decimals exactly', () => {
    expect(parseUnits('0.42')).toBe(420_000n);
    expect(parseUnits('22.123')).toBe(22_123_000n);
    expect(parseUnits('10')).toBe(10_000_000n);
    expect(parseUnits('.5')).toBe(500_000n);
    expect(parseUnits('0.000001')).toBe(1n);
    expect(parseUnits('123456789012.123456')).toBe(123_456_789_012_123_456n);
  });
  it('refuses garbage and excess precision, naming the field', () => {
    expect(() => parseUnits('abc', 6, 'size')).toThrow(ValidationError);
    expect(() => parseUnits('-1', 6, 'size')).toThrow(/size/);
    expect(() => parseUnits('0.0000001', 6, 'amount')).toThrow(/more than 6 decimal/);
    expect(() => parseUnits('', 6)).toThrow(ValidationError);
    expect(() => parseUnits('1e3', 6)).toThrow(ValidationError);
  });
  it('formats raw units', () => {
    expect(formatUnits(5_500_000n)).toBe('5.5');
    expect(formatUnits(5_500_000n, 6, 2)).toBe('5.50');
    expect(formatUnits(1n)).toBe('0.000001');
    expect(formatUnits(-1_250_000n)).toBe('-1.25');
    expect(formatUnits(0n)).toBe('0');
  });
  it('reads wire numbers without float drift', () => {
    expect(priceFromWire(0.55)).toBe(550_000n);
    expect(priceFromWire('0.123')).toBe(123_000n);
    expect(priceFromWire(0.1 + 0.2)).toBe(300_000n);
    expect(priceFromWire(null)).toBeNull();
    expect(rawFromWire('300000000')).toBe(300_000_000n);
    expect(rawFromWire(50_000_000)).toBe(50_000_000n);
  });
});

describe('addresses', () => {
  it('EIP-55: all lowercase and all uppercase carry no checksum and are accepted; a mixed case must match it', async () => {
    const { parseAddress } = await import('../../src/core/funds.js');
    const sum = '0x14dC79964da2C08b23698B3D3cc7Ca32193d9955';
    expect(parseAddress(sum)).toBe(sum);
    expect(parseAddress(sum.toLowerCase())).toBe(sum);
    expect(parseAddress(`0x${sum.slice(2).toUpperCase()}`)).toBe(sum);
    expect(() => parseAddress('0x14Dc79964da2C08b23698B3D3cc7Ca32193d9955')).toThrow(/checksum/);
  });
});

describe('decimals past the sixth', () => {
  it('are refused only when they are not zeros: 0.4200000 is 0.42', () => {
    expect(parseUnits('0.4200000')).toBe(420_000n);
    expect(parseUnits('12.50000000')).toBe(12_500_000n);
    expect(() => parseUnits('0.0000001')).toThrow(/more than 6 decimal places/);
  });
});

describe('withdrawal amounts', () => {
  it('a hint never offers an amount that is itself refused; trailing zeros are fine', async () => {
    const { parseAmount } = await import('../../src/core/funds.js');
    expect(() => parseAmount('0.0000001')).toThrow(expect.objectContaining({ hint: expect.stringMatching(/nearest valid: 0\.000001$/) }));
    expect(() => parseAmount('1.2345678')).toThrow(expect.objectContaining({ hint: expect.stringMatching(/nearest valid: 1\.234567$/) }));
    expect(parseAmount('2.5000000')).toBe(2_500_000n);
  });
});
