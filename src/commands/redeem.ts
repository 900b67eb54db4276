import { defineCommand } from '../cli/command.js';
import { ExchangeValidationError, type PmError, UnknownStateError, UsageError, errorMessage } from '../core/errors.js';
import { slugFrom } from '../core/market-input.js';
import { getMarket } from '../core/markets.js';
import { formatUnits, rawFromWire } from '../core/money.js';
import { fetchPositions } from '../core/portfolio.js';
import { RedemptionJournal, redeemOnce, redemptionAccount } from '../core/redemptions.js';
import { profileMe } from '../core/tokens.js';
import { ON_BEHALF, pmLine, portfolioApi } from './portfolio/common.js';

interface Claim {
  market: string;
  conditionId: string;
  status: 'redeemed' | 'not redeemable yet' | 'refused' | 'unknown';
  payout: string | null;
  payoutRaw: string | null;
  message?: string;
  userOperationHash?: string;
}

export default defineCommand({
  path: ['redeem'],
  summary: 'Claim winning shares of resolved markets: 1 USDC per share',
  args: { slug: { description: 'market slug' } },
  options: {
    conditionId: { type: 'string', value: 'id', description: "the market's condition id (0x + 64 hex)" },
    all: { type: 'boolean', description: 'every redeemable position' },
    onBehalfOf: ON_BEHALF,
  },
  description:
    'Claims the winning shares of a resolved market through the exchange (an EOA may also redeem on chain: pm redeem-onchain). --all claims every redeemable position and lists each result.\n\nExit codes: 0 redeemed, 2 nothing to redeem found before sending (--all with no redeemable position) or bad input, 5 already redeemed, 7 the outcome of a claim is unknown (pm could not read its answer: lost, cut short, a 5xx; re-run the same command, as printed: a market is never paid twice, and a claim an earlier run could not tell about is reported redeemed once the exchange says it was paid), 8 --all when some claims were refused, 9 refused by the exchange (nothing to redeem, not resolved, payout not posted yet).',
  examples: ['pm redeem eth-5k-2025', 'pm redeem --all', 'pm --json redeem --condition-id 0x…'],
  run: async (ctx, { args, opts }) => {
    const all = opts.all;
    const cidOpt = opts.conditionId;
    const slugArg = args.slug;
    if ([all, cidOpt !== undefined, slugArg !== undefined].filter(Boolean).length !== 1) {
      throw new UsageError('give exactly one of <slug>, --condition-id or --all', {
        hint: 'pm redeem eth-5k-2025 | pm redeem --condition-id 0x… | pm redeem --all',
      });
    }
    if (cidOpt !== undefined && !/^0x[0-9a-fA-F]{64}$/.test(cidOpt))
      throw new UsageError(`--condition-id "${cidOpt}" is not a bytes32 hex string (0x + 64 hex digits)`);
    const api = await portfolioApi(ctx, opts);
    const targets: { market: string; conditionId: string; pending: boolean }[] = [];
    if (all) {
      const rows = (await fetchPositions(api)).rows;
      for (const r of rows) {
        if (!r.conditionId || targets.some((t) => t.conditionId === r.conditionId)) continue;
        if (r.redeemable || (r.payoutPending && r.won === true && r.shares > 0n))
          targets.push({ market: r.market, conditionId: r.conditionId, pending: r.payoutPending });
      }
    } else if (cidOpt !== undefined) {
      targets.push({ market: cidOpt, conditionId: cidOpt, pending: false });
    } else {
      const slug = slugFrom(slugArg ?? '');
      const m = await getMarket(api, slug);
      const cid = (m.raw as Record<string, unknown>)['conditionId'];
      if (typeof cid !== 'string') throw new UsageError(`market ${slug} has no condition id (a group? redeem its child markets)`);
      targets.push({ market: slug, conditionId: cid, pending: false });
    }
    // The command to re-run after an unknown outcome: this one, word for word.
    const words = all ? ['redeem', '--all'] : cidOpt !== undefined ? ['redeem', '--condition-id', cidOpt] : ['redeem', slugArg ?? ''];
    if (opts.onBehalfOf !== undefined) words.push('--on-behalf-of', String(opts.onBehalfOf));
    const rerun = pmLine(ctx, words);
    const journal = new RedemptionJournal(ctx.home);
    const profileId = (await profileMe(api).catch(() => null))?.id;
    if (all) {
      // A claim an earlier run could not tell about is asked again: it may have been paid (then
      // the positions no longer list it) or not.
      for (const e of journal.open(redemptionAccount(api, profileId)))
        if (!targets.some((t) => t.conditionId.toLowerCase() === e.conditionId.toLowerCase()))
          targets.push({ market: e.market, conditionId: e.conditionId, pending: false });
      // Found before anything is sent: exit 2 (a refusal by the exchange, for a named market, is 9).
      if (targets.length === 0)
        throw new UsageError('nothing to redeem: no resolved market where you hold winning shares; nothing was sent', {
          hint: 'pm portfolio positions --resolved lists resolved positions; pm redeem <slug> asks the exchange about one market.',
        });
    }
    const claims: Claim[] = [];
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
        // safe, as the exchange pays a market once.
        const unknown = e instanceof UnknownStateError;
        claims.push({
          market: t.market,
          conditionId: t.conditionId,
          status: unknown ? 'unknown' : /not redeemable yet/.test((e as PmError).shortMessage ?? '') ? 'not redeemable yet' : 'refused',
          payout: null,
          payoutRaw: null,
          message: unknown ? `${errorMessage(e)}; the outcome is unknown: re-run the same command: ${rerun}` : errorMessage(e),
        });
      }
    }
    ctx.out.data(all ? claims : claims[0], () =>
      ctx.out.table(
        [{ header: 'MARKET' }, { header: 'STATUS' }, { header: 'PAID (USDC)', align: 'right' }, { header: 'NOTE' }],
        claims.map((c) => [c.market, c.status, c.payout ?? '-', c.message ?? c.userOperationHash ?? '']),
      ),
    );
    if (claims.some((c) => c.status === 'unknown')) return 7;
    if (all && claims.some((c) => c.status === 'refused')) return 8;
  },
});
