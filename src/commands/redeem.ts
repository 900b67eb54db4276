import { cutFirst } from '../cli/output.js';
import type { ApiClient } from '../core/http.js';
import { defineCommand } from '../cli/command.js';
import { amounts } from './portfolio/common.js';
import {
  ExchangeValidationError,
  PartialFailureError,
  PmError,
  RateLimitError,
  UnknownStateError,
  UsageError,
  errorMessage,
} from '../core/errors.js';
import type { PmErrorOptions } from '../core/errors.js';
import { RedemptionJournal, redeemOnce, redemptionAccount } from '../core/redemptions.js';
import { profileMe } from '../core/tokens.js';
import { sameCommand } from '../cli/rerun.js';
import { slugFrom } from '../core/market-input.js';
import { getMarket } from '../core/markets.js';
import { formatUnits, rawFromWire } from '../core/money.js';
import { fetchPositions } from '../core/portfolio.js';

interface Claim {
  market: string;
  conditionId: string;
  status: 'redeemed' | 'not redeemable yet' | 'refused' | 'not sent' | 'unknown';
  payout: string | null;
  payoutRaw: string | null;
  message?: string;
  userOperationHash?: string;
}

export default defineCommand({
  path: ['redeem'],
  effect: 'money',
  actsFor: true,
  describe: async (ctx, { args, opts }) => {
    const targets = await redeemTargets(await ctx.tradingApi(), args.slug, opts);
    if (opts.all && targets.length === 0) throw nothingToRedeem(ctx.onBehalfOf);
    return `Redeem ${targets.length} market${targets.length === 1 ? '' : 's'}${ctx.onBehalfOf === undefined ? '' : ` for sub-account ${ctx.onBehalfOf}`}:${targets.map((t) => `\n  ${t.market}${t.shares === undefined ? '' : ` (${formatUnits(t.shares)} winning shares)`}`).join('')}`;
  },
  summary: 'Claim winning shares of resolved markets: 1 USDC per share',
  args: { slug: { description: 'market slug' } },
  options: {
    conditionId: { type: 'string', value: 'id', description: "the market's condition id (0x + 64 hex)" },
    all: { type: 'boolean', description: 'every redeemable position' },
  },
  description:
    'Claims the winning shares of a resolved market through the exchange (an EOA may also redeem on chain: pm redeem-onchain). --all claims every redeemable position and lists each result.\n\nExit codes: 0 redeemed, 2 nothing to redeem found before sending (--all with no redeemable position) or bad input, 5 already redeemed, 7 the outcome of a claim is unknown (pm could not read its answer: lost, cut short, a 5xx; re-run the same command, as printed: a market is never paid twice, and a claim an earlier run could not tell about is reported redeemed once the exchange says it was paid), 8 --all when some claims were refused, 9 refused by the exchange (nothing to redeem, not resolved, payout not posted yet).',
  examples: ['pm redeem eth-5k-2025', 'pm redeem --all', 'pm --json redeem --condition-id 0x…'],
  check: (_ctx, { args, opts }) => checkChoice(args.slug, opts),
  run: async (ctx, { args, opts }) => {
    const all = opts.all;
    const api = await ctx.tradingApi();
    const targets = await redeemTargets(api, args.slug, opts);
    // The command to re-run after an unknown outcome: this one, word for word.
    const rerun = sameCommand(ctx);
    const journal = new RedemptionJournal(ctx.home);
    const profileId = (await profileMe(api).catch(() => null))?.id;
    if (all) {
      // A claim an earlier run could not tell about is asked again: it may have been paid (then
      // the positions no longer list it) or not.
      for (const e of journal.open(redemptionAccount(api, profileId)))
        if (!targets.some((t) => t.conditionId.toLowerCase() === e.conditionId.toLowerCase()))
          targets.push({ market: e.market, conditionId: e.conditionId, pending: false });
      // Found before anything is sent: exit 2 (a refusal by the exchange, for a named market, is 9).
      if (targets.length === 0) throw nothingToRedeem(ctx.onBehalfOf);
    }
    const claims: Claim[] = [];
    // The first error of a claim that was not sent (its class gives the exit code).
    let notSent: unknown;
    for (const t of targets) {
      if (t.pending) {
        claims.push({
          market: t.market,
          conditionId: t.conditionId,
          status: 'not redeemable yet',
          payout: null,
          payoutRaw: null,
          message: 'resolved, but the payout is not posted on chain yet; try again later',
        });
        continue;
      }
      try {
        const r = await redeemOnce(api, { conditionId: t.conditionId, market: t.market }, { journal, profileId, rerun });
        const payout = r.via === 'already' ? null : rawFromWire(r.payout ?? '0');
        claims.push({
          market: t.market,
          conditionId: t.conditionId,
          status: 'redeemed',
          payout: payout === null ? null : formatUnits(payout),
          payoutRaw: payout === null ? null : payout.toString(),
          ...(r.via === 'already'
            ? { message: `paid by an earlier run (${r.earlier ?? '?'}) whose answer pm could not read` }
            : { userOperationHash: r.userOperationHash }),
        });
      } catch (e) {
        if (!all) {
          if (e instanceof ExchangeValidationError && /not redeemable yet/.test(e.shortMessage))
            throw new ExchangeValidationError(e.shortMessage, {
              status: e.status,
              hint: 'The market is resolved but its payout is not posted yet: run pm redeem again later.',
            });
          throw e;
        }
        // An answer pm could not read is no refusal: the claim may have been paid. Re-running is
        // safe, as the exchange pays a market once. A claim the exchange never acted on (a 429
        // past the deadline, a request that never left) is not refused either: not sent.
        const unknown = e instanceof UnknownStateError;
        const refusal =
          e instanceof PmError && e.status !== undefined && e.status >= 400 && e.status < 500 && !(e instanceof RateLimitError);
        if (!unknown && !refusal) notSent ??= e;
        claims.push({
          market: t.market,
          conditionId: t.conditionId,
          status: unknown
            ? 'unknown'
            : /not redeemable yet/.test(errorMessage(e))
              ? 'not redeemable yet'
              : refusal
                ? 'refused'
                : 'not sent',
          payout: null,
          payoutRaw: null,
          message: unknown ? `${errorMessage(e)}; the outcome is unknown: re-run the same command: ${rerun}` : errorMessage(e),
        });
      }
    }
    const { usd } = amounts(ctx.out);
    ctx.out.data(all ? claims : claims[0], () =>
      ctx.out.table(
        [{ header: 'MARKET' }, { header: 'STATUS' }, { header: 'PAID (USDC)', align: 'right' }, { header: 'NOTE', fit: cutFirst(1, 12) }],
        claims.map((c) => [
          c.market,
          c.status,
          c.payoutRaw === null ? '-' : usd(BigInt(c.payoutRaw)),
          c.message ?? c.userOperationHash ?? '',
        ]),
      ),
    );
    const unknown = claims.filter((c) => c.status === 'unknown');
    if (unknown.length > 0)
      throw new UnknownStateError(
        `the outcome of ${unknown.length === 1 ? `the claim on ${unknown[0]?.market}` : `${unknown.length} claims`} is unknown`,
        { hint: `Run exactly this again (a market is never paid twice):\n  ${rerun}` },
      );
    const unsent = claims.filter((c) => c.status === 'not sent');
    if (unsent.length > 0 && notSent !== undefined) {
      // The first such claim's error, with its exit code (6 rate limited, 7 network…).
      const first = notSent instanceof PmError ? notSent : new PmError(errorMessage(notSent));
      const Cls = first.constructor as new (message: string, o: PmErrorOptions) => PmError;
      throw new Cls(
        `${unsent.length} of ${claims.length} ${claims.length === 1 ? 'claim was' : 'claims were'} not sent: ${errorMessage(first)}`,
        {
          cause: first,
          hint: `Nothing was paid for ${unsent.length === 1 ? 'it' : 'them'}. Run the same command again: ${rerun}`,
        },
      );
    }
    const refused = claims.filter((c) => c.status === 'refused');
    if (all && refused.length > 0)
      throw new PartialFailureError(`${refused.length} of ${claims.length} claims were refused`, {
        hint: 'See the NOTE column (or message in JSON).',
      });
  },
});

/** --all found no redeemable position: exit 2, before anything is sent (a refusal by the exchange, for a named market, is 9). */
function nothingToRedeem(onBehalfOf: number | undefined): UsageError {
  const who = onBehalfOf === undefined ? 'you hold' : `sub-account ${onBehalfOf} holds`;
  return new UsageError(`nothing to redeem: no resolved market where ${who} winning shares; nothing was sent`, {
    hint: 'pm portfolio positions --resolved lists resolved positions; pm redeem <slug> asks the exchange about one market.',
  });
}

interface Target {
  market: string;
  conditionId: string;
  pending: boolean;
  /** Winning shares held, where the positions say. */
  shares?: bigint | undefined;
}

/** Exactly one of <slug>, --condition-id or --all, read offline. */
function checkChoice(slugArg: string | undefined, opts: { all: boolean; conditionId?: string | undefined }): void {
  const cidOpt = opts.conditionId;
  if ([opts.all, cidOpt !== undefined, slugArg !== undefined].filter(Boolean).length !== 1) {
    throw new UsageError('give exactly one of <slug>, --condition-id or --all', {
      hint: 'pm redeem eth-5k-2025 | pm redeem --condition-id 0x… | pm redeem --all',
    });
  }
  if (cidOpt !== undefined && !/^0x[0-9a-fA-F]{64}$/.test(cidOpt))
    throw new UsageError(`--condition-id "${cidOpt}" is not a bytes32 hex string (0x + 64 hex digits)`, {
      hint: 'Name the market instead: pm redeem <slug> (or copy its conditionId from pm --json markets show <slug>).',
    });
}

/** What to redeem: one market (slug or condition id) or, with --all, every redeemable position (reads only). */
async function redeemTargets(
  api: ApiClient,
  slugArg: string | undefined,
  opts: { all: boolean; conditionId?: string | undefined },
): Promise<Target[]> {
  checkChoice(slugArg, opts);
  const all = opts.all;
  const cidOpt = opts.conditionId;
  const targets: Target[] = [];
  if (all) {
    const rows = (await fetchPositions(api)).rows;
    for (const r of rows) {
      if (!r.conditionId || targets.some((t) => t.conditionId === r.conditionId)) continue;
      if (r.redeemable || (r.payoutPending && r.won === true && r.shares > 0n))
        targets.push({ market: r.market, conditionId: r.conditionId, pending: r.payoutPending, shares: r.shares });
    }
  } else if (cidOpt !== undefined) {
    // The market's slug from the account's positions (a read), as a slug names it; else the id.
    const held = (await fetchPositions(api)).rows.find((r) => r.conditionId?.toLowerCase() === cidOpt.toLowerCase());
    targets.push({ market: held?.market || cidOpt, conditionId: cidOpt, pending: false });
  } else {
    const slug = slugFrom(slugArg ?? '');
    const m = await getMarket(api, slug);
    const cid = (m.raw as Record<string, unknown>)['conditionId'];
    if (typeof cid !== 'string') throw new UsageError(`market ${slug} has no condition id (a group? redeem its child markets)`);
    targets.push({ market: slug, conditionId: cid, pending: false });
  }
  return targets;
}
