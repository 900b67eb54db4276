// The engine driven without a running sandbox: decide with the engine, apply the decided event
// with the reducer (what ctx.apply does, minus the log), so tests can read the order as it
// stands, its fills and totals. `record` receives each applied event (a test's own log).
import { decideCancel, decideOrder, type Refusal, type SubmitInput } from '../../src/sandbox/engine.js';
import { orderById } from '../../src/sandbox/indexes.js';
import { apply } from '../../src/sandbox/reducer.js';
import type { OrderRecord, SandboxState } from '../../src/sandbox/types.js';
import type { Fill, StateEvent } from '../../src/sandbox/events.js';

export interface Submitted {
  ok: true;
  order: OrderRecord;
  fills: Fill[];
  totals: { contractsGross: bigint; contractsFee: bigint; contractsNet: bigint; usdGross: bigint; usdFee: bigint; usdNet: bigint };
  /** The ids of the taker's own resting orders cancelled by self-trade prevention. */
  stpCanceled: string[];
  event: StateEvent;
}

/** Places an order on `state` (engine, then reducer); the refusal leaves it unchanged. */
export function submit(state: SandboxState, input: SubmitInput, now: number, record?: (ev: StateEvent) => void): Submitted | Refusal {
  const d = decideOrder(state, input, now);
  if (!d.ok) return d;
  apply(state, d.event);
  record?.(d.event);
  const t = d.event.totals;
  return {
    ok: true,
    order: orderById(state, d.event.order.id) ?? d.event.order,
    fills: d.event.fills,
    totals: {
      contractsGross: t.contracts,
      contractsFee: 0n,
      contractsNet: t.contracts,
      usdGross: t.usdGross,
      usdFee: t.usdFee,
      usdNet: t.usdNet,
    },
    stpCanceled: d.event.stpCanceled,
    event: d.event,
  };
}

/** Cancels one LIVE order of `profileId` on `state` (engine, then reducer). */
export function cancel(
  state: SandboxState,
  orderId: string,
  profileId: number,
  now: number,
  record?: (ev: StateEvent) => void,
): { ok: true; order: OrderRecord } | Refusal {
  const d = decideCancel(state, orderId, profileId, now);
  if (!d.ok) return d;
  apply(state, d.event);
  record?.(d.event);
  return { ok: true, order: d.order };
}
