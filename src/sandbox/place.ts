// Placing and cancelling orders the one way every writer does (routes, the simulator): the
// engine decides, ctx.apply commits the event (log, disk, then the streams), and a matched
// trade starts settling.
import { cancelEvent, decideCancel, decideOrder, type Refusal, type SubmitInput } from './engine.js';
import { orderById } from './indexes.js';
import { scheduleSettlement } from './settlement.js';
import { ONE, buyLock } from './orders/amounts.js';
import type { OrderRecord } from './types.js';
import type { StateEvent } from './events.js';
import type { SandboxContext } from './handlers.js';

/**
 * Places an order: the order as it stands after matching, or the engine's refusal (nothing
 * changed). `also` is committed with it, in the same commit (an actor's progress).
 */
export function placeOrder(ctx: SandboxContext, input: SubmitInput, ...also: StateEvent[]): { ok: true; order: OrderRecord } | Refusal {
  const d = decideOrder(ctx.state, input, ctx.now());
  if (!d.ok) return d;
  ctx.apply(d.event, ...also);
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

/** An order of an actor's bot: what it decides; amounts, fee rate and signed order follow from the owner and the price. */
export type BotOrder = Omit<SubmitInput, 'signedOrder' | 'makerAmount' | 'takerAmount' | 'feeRateBps' | 'postOnly'> & {
  postOnly?: boolean;
};

/**
 * Places an order of an actor's bot (the simulator's, the replay's): a bot never signs, so its
 * signed order is marked simulated. Refused (nothing changed) when the owner is unknown.
 */
export function placeBotOrder(ctx: SandboxContext, input: BotOrder, ...also: StateEvent[]): { ok: true; order: OrderRecord } | Refusal {
  const owner = ctx.state.profiles.find((p) => p.id === input.ownerId);
  if (!owner || input.price === null) return { ok: false, reason: 'INVALID_ORDER', message: 'no such bot, or no price' };
  const collateral = input.side === 'BUY' ? buyLock(input.size, input.price) : (input.size * input.price) / ONE;
  const makerAmount = input.side === 'BUY' ? collateral : input.size;
  const takerAmount = input.side === 'BUY' ? input.size : collateral;
  return placeOrder(
    ctx,
    {
      ...input,
      postOnly: input.postOnly ?? false,
      makerAmount,
      takerAmount,
      feeRateBps: owner.feeRateBps,
      signedOrder: {
        maker: owner.address,
        signer: owner.address,
        tokenId: input.tokenId,
        makerAmount: makerAmount.toString(),
        takerAmount: takerAmount.toString(),
        side: input.side === 'BUY' ? 0 : 1,
        price: Number(input.price) / 1e6,
        feeRateBps: owner.feeRateBps,
        signatureType: 0,
        signature: null,
        simulated: true,
      },
    },
    ...also,
  );
}
