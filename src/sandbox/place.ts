// Placing and cancelling orders the one way every writer does (routes, the simulator): the
// engine decides, ctx.apply commits the event (log, disk, then the streams), and a matched
// trade starts settling.
import { cancelEvent, decideCancel, decideOrder, type Refusal, type SubmitInput } from './engine.js';
import { orderById } from './indexes.js';
import { scheduleSettlement } from './settlement.js';
import type { OrderRecord } from './types.js';
import type { SandboxContext } from './handlers.js';

/** Places an order: the order as it stands after matching, or the engine's refusal (nothing changed). */
export function placeOrder(ctx: SandboxContext, input: SubmitInput): { ok: true; order: OrderRecord } | Refusal {
  const d = decideOrder(ctx.state, input, ctx.now());
  if (!d.ok) return d;
  ctx.apply(d.event);
  const order = orderById(ctx.state, d.event.order.id) ?? d.event.order;
  if (order.tradeEventId !== null) scheduleSettlement(ctx, order.id);
  return { ok: true, order };
}

/** Cancels one LIVE order of `profileId` (404 reasons when it is not theirs, 400 when no longer LIVE). */
export function cancelOrder(ctx: SandboxContext, orderId: string, profileId: number): { ok: true; order: OrderRecord } | Refusal {
  const d = decideCancel(ctx.state, orderId, profileId, ctx.now());
  if (!d.ok) return d;
  ctx.apply(d.event);
  return { ok: true, order: d.order };
}

/** Cancels LIVE orders in one commit; returns their ids. */
export function cancelOrders(ctx: SandboxContext, orders: readonly OrderRecord[]): string[] {
  const now = ctx.now();
  if (orders.length > 0) ctx.apply(...orders.map((o) => cancelEvent(o, now)));
  return orders.map((o) => o.id);
}
