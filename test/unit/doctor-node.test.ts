// pm doctor's notes on the Node it runs on: a Node past its end of life, and NODE_EXTRA_CA_CERTS on
// Node 20 (read at every start, ~90 ms a command; Node 24 reads it when TLS needs it). Notes, not
// failures: only a Node older than 20.19 fails.
import { expect, it } from 'vitest';
import { checkNode, EXTRA_CA_COST_MS, NODE_END_OF_LIFE } from '../../src/core/doctor.js';

const day = (d: string) => new Date(`${d}T12:00:00Z`);

it('notes a Node past its end of life, from the day of its end of life on', () => {
  expect(NODE_END_OF_LIFE[20]).toBe('2026-04-30');
  expect(checkNode('20.20.0', day('2026-04-29'), undefined)).toMatchObject({ status: 'pass', detail: 'Node 20.20.0' });
  const after = checkNode('20.20.0', day('2026-04-30'), undefined);
  expect(after).toMatchObject({ status: 'warn', data: { endOfLife: '2026-04-30' } });
  expect(after.detail).toBe('Node 20.20.0: Node 20 reached its end of life on 2026-04-30 (no more security fixes)');
  expect(after.fix).toMatch(/Install Node 24 LTS .*supported until 2028-04-30/);
  expect(checkNode('22.12.0', day('2026-11-28'), undefined).status).toBe('pass');
  expect(checkNode('22.12.0', day('2027-05-01'), undefined).status).toBe('warn');
  expect(checkNode('24.21.0', day('2026-11-28'), undefined).status).toBe('pass');
  expect(checkNode('25.1.0', day('2026-11-28'), undefined).data).toEqual({ endOfLife: '2026-06-01' });
  // A line newer than the table: nothing known against it.
  expect(checkNode('28.0.0', day('2031-01-01'), undefined).status).toBe('pass');
});

it('notes NODE_EXTRA_CA_CERTS on Node 20 only, with what it costs a command', () => {
  const ca = '/etc/ssl/certs/corp-proxy.pem';
  const on20 = checkNode('20.20.0', day('2026-01-01'), ca);
  expect(on20).toMatchObject({ status: 'warn', data: { extraCaCostMs: EXTRA_CA_COST_MS } });
  expect(on20.detail).toContain(
    `NODE_EXTRA_CA_CERTS is set: Node 20 reads it at every start, ~${EXTRA_CA_COST_MS} ms added to each pm command`,
  );
  expect(on20.fix).toContain('reads NODE_EXTRA_CA_CERTS only when a TLS connection needs it');
  const both = checkNode('20.20.0', day('2026-11-28'), ca);
  expect(both.data).toEqual({ endOfLife: '2026-04-30', extraCaCostMs: EXTRA_CA_COST_MS });
  expect(checkNode('24.21.0', day('2026-11-28'), ca)).toMatchObject({ status: 'pass', detail: 'Node 24.21.0' });
  expect(checkNode('22.12.0', day('2026-11-28'), ca).status).toBe('pass');
});

it('fails only a Node older than 20.19', () => {
  expect(checkNode('20.18.3', day('2026-01-01'), undefined)).toMatchObject({ status: 'fail', detail: 'Node 20.18.3 is older than 20.19' });
  expect(checkNode('18.20.0', day('2020-01-01'), undefined).status).toBe('fail');
  expect(checkNode('20.19.0', day('2026-01-01'), undefined).status).toBe('pass');
});
