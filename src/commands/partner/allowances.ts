import type { Handler } from '../../cli/command.js';
import { optBool, optStr } from '../../cli/command.js';
import { getAllowances, needsRetry, parseDuration, parseProfileId, retryAllowances } from '../../core/partner.js';
import { partnerApi, renderAllowances, waitWithProgress } from './common.js';

const run: Handler = async (ctx, { args, opts }) => {
  const profileId = parseProfileId(args[0]);
  const timeoutMs = parseDuration(optStr(opts, 'waitTimeout') ?? '120s', '--wait-timeout');
  const retry = optBool(opts, 'retry');
  const api = await partnerApi(ctx);
  let a;
  if (optBool(opts, 'wait')) a = await waitWithProgress(ctx, api, profileId, { retry, timeoutMs });
  else {
    a = await getAllowances(api, profileId);
    if (retry && !a.ready && needsRetry(a)) a = await retryAllowances(api, profileId);
  }
  ctx.out.data(a, () => renderAllowances(ctx, a));
  return 0;
};
export default run;
