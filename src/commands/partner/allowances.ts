import { defineCommand } from '../../cli/command.js';
import { parseDuration } from '../../core/duration.js';
import { getAllowances, needsRetry, parseProfileId, retryAllowances } from '../../core/partner.js';
import { partnerApi, renderAllowances, waitWithProgress } from './common.js';

export default defineCommand({
  path: ['partner', 'allowances'],
  effect: 'read',
  // (--retry submits the sub-account's approvals: money, as pm approve set is.)
  effectNote: "With `--retry`: **money** (the exchange submits the sub-account's approvals from its server wallet)",
  effectOf: ({ opts }) => (opts.retry ? 'money' : 'read'),
  describe: (_ctx, { args, opts }) =>
    `Ask the exchange to submit the approvals still missing for sub-account ${args.profileId} (USDC allowance and CTF approval per venue, sent from its server wallet)${opts.wait ? ', then wait until every one is confirmed' : ''}`,
  longRunning: ({ opts }) => opts.wait,
  summary: "A server-wallet sub-account's approvals; --retry --wait until it can trade",
  description:
    "Shows each allowance target (USDC allowance and CTF approval per venue) with its state. --retry asks the exchange to submit the targets still missing or failed-and-retryable (a write: on an exchange that is not a sandbox it asks first, and a script needs --yes). --wait runs the contract's loop (poll, retry when needed, wait out a 429's retryAfterSeconds, back off on a 409 while another retry runs) with live progress on stderr until every target is confirmed. --wait-timeout bounds it (the global --timeout, a duration such as 30s, bounds each request of the wait).\n\nExit codes: 0 ready (or shown), 2 bad profile id, 3 missing scope, 4 not your sub-account, 6 the rate limit never let it finish (the seconds asked are shown), 7 not ready in time.",
  args: { profileId: { description: 'sub-account profile id', required: true } },
  options: {
    retry: { type: 'boolean', description: 'submit the missing or retryable targets' },
    wait: { type: 'boolean', description: 'keep going until every target is confirmed' },
    waitTimeout: { type: 'string', value: 'duration', description: 'give up after this long (e.g. 120s, 2m)', default: '120s' },
  },
  examples: [
    'pm partner allowances 2001',
    'pm partner allowances 2001 --retry --wait',
    'pm --json partner allowances 2001 --retry --wait --wait-timeout 3m | jq .ready',
  ],
  check: (_ctx, { args, opts }) => void commandLine(args, opts),
  run: async (ctx, { args, opts }) => {
    const { profileId, timeoutMs } = commandLine(args, opts);
    const retry = opts.retry;
    const api = await partnerApi(ctx);
    let a;
    if (opts.wait) a = await waitWithProgress(ctx, api, profileId, { retry, timeoutMs });
    else {
      a = await getAllowances(api, profileId);
      if (retry && !a.ready && needsRetry(a)) a = await retryAllowances(api, profileId);
    }
    ctx.out.data(a, () => renderAllowances(ctx, a));
    return;
  },
});

/** The command line, read offline (a bad profile id or --wait-timeout is refused before --retry is confirmed). */
function commandLine(args: { profileId: string | undefined }, opts: { waitTimeout: string | undefined }) {
  return { profileId: parseProfileId(args.profileId), timeoutMs: parseDuration(opts.waitTimeout ?? '120s', '--wait-timeout') };
}
