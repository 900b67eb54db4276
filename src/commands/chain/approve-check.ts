// pm approve check [<slug>|--all]: the USDC allowance and CTF approvals the wallet needs for
// the venues of these markets, read on chain.
import type { Handler } from '../../cli/command.js';
import { formatUnits } from '../../core/money.js';
import { approvalTargets, UNLIMITED_FLOOR, type ApprovalState } from '../../core/chain.js';
import { connectChain, marketsFor, walletAddress } from './common.js';

export function stateText(s: ApprovalState): string {
  if (s.kind === 'CTF_APPROVAL') return s.ok ? 'approved' : 'missing';
  if (s.current === 0n) return 'missing';
  const amount = s.current >= UNLIMITED_FLOOR ? 'unlimited' : `${formatUnits(s.current)} USDC`;
  return s.ok ? `approved (${amount})` : `too low (${amount})`;
}

export function stateJson(s: ApprovalState): Record<string, unknown> {
  return { type: s.kind, target: s.label, spender: s.spender, requiredFor: s.requiredFor, status: s.ok ? 'confirmed' : 'missing', current: s.kind === 'USDC_ALLOWANCE' ? s.current.toString() : s.ok, markets: s.markets };
}

const run: Handler = async (ctx, { args, opts }) => {
  const markets = await marketsFor(ctx, args[0], opts);
  const owner = await walletAddress(ctx);
  const chain = await connectChain(ctx, opts);
  const states = await chain.approvals(owner, approvalTargets(markets, ['BUY', 'SELL']));
  const missing = states.filter((s) => !s.ok).length;
  ctx.out.data({ wallet: owner, chainId: chain.setup.chainId, rpcUrl: chain.setup.rpcUrl, approvals: states.map(stateJson), missing }, () => {
    ctx.out.line(`wallet ${owner} on chain ${chain.setup.chainId}`);
    ctx.out.table(
      [{ header: 'TOKEN' }, { header: 'TARGET' }, { header: 'ADDRESS' }, { header: 'NEEDED FOR' }, { header: 'STATE' }],
      states.map((s) => [s.kind === 'USDC_ALLOWANCE' ? 'USDC allowance' : 'CTF approval', s.label, s.spender, s.requiredFor, stateText(s)]),
    );
    ctx.out.info(missing ? `${missing} missing: pm approve set ${args[0] ?? '--all'}` : 'all approvals in place');
  });
  return 0;
};
export default run;
