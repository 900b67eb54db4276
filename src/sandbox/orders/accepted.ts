// What the exchange has accepted once and refuses the second time: a client order id (per
// owner) and a signed order's hash (whoever sends it again, under whatever client id). Both are
// derived from state.orders (append-only; neither field of an order ever changes), which the
// event log rebuilds on a restart, so the refusal survives one. The index catches up from the
// tail and is rebuilt when the array is replaced or shrinks: each check costs O(1).
import type { OrderRecord, SandboxState } from '../types.js';

interface Accepted {
  orders: OrderRecord[];
  scanned: number;
  clientIds: Set<string>;
  hashes: Set<string>;
}

const indexes = new WeakMap<SandboxState, Accepted>();

function accepted(state: SandboxState): Accepted {
  let idx = indexes.get(state);
  if (!idx || idx.orders !== state.orders || idx.scanned > state.orders.length) {
    idx = { orders: state.orders, scanned: 0, clientIds: new Set(), hashes: new Set() };
    indexes.set(state, idx);
  }
  for (; idx.scanned < state.orders.length; idx.scanned++) {
    const o = state.orders[idx.scanned] as OrderRecord;
    if (o.clientOrderId !== null) idx.clientIds.add(`${o.ownerId}|${o.clientOrderId}`);
    if (o.orderHash !== undefined) idx.hashes.add(o.orderHash.toLowerCase());
  }
  return idx;
}

/** Whether `ownerId` already has an order under this client id. */
export function clientIdTaken(state: SandboxState, ownerId: number, clientOrderId: string): boolean {
  return accepted(state).clientIds.has(`${ownerId}|${clientOrderId}`);
}

/** Whether an order with this EIP-712 hash was accepted before. */
export function orderHashAccepted(state: SandboxState, orderHash: string): boolean {
  return accepted(state).hashes.has(orderHash.toLowerCase());
}
