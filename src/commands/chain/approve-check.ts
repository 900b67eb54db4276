// pm approve check [<slug>|--all]: the USDC allowance and CTF approvals the wallet needs for
// the venues of these markets, read on chain.
import { cutFirst } from '../../cli/output.js';
import { defineCommand } from '../../cli/command.js';
import { PartialFailureError } from '../../core/errors.js';
import { formatUnits } from '../../core/money.js';
import { approvalTargets, UNLIMITED_FLOOR, type ApprovalState } from '../../core/chain.js';
import { RPC_URL, connectChain, marketsFor, walletAddress } from './common.js';

export function stateText(s: ApprovalState): string {
  if (s.kind === 'CTF_APPROVAL') return s.ok ? 'approved' : 'missing';
  if (s.current === 0n) return 'missing';
  const amount = s.current >= UNLIMITED_FLOOR ? 'unlimited' : `${formatUnits(s.current)} USDC`;
  return s.ok ? `approved (${amount})` : `too low (${amount})`;
}

export function stateJson(s: ApprovalState): Record<string, unknown> {
  return {
    type: s.kind,
    target: s.label,
    spender: s.spender,
    requiredFor: s.requiredFor,
    status: s.ok ? 'confirmed' : 'missing',
    // (An allowance as every amount in JSON: a decimal string, its raw integer beside it.)
    ...(s.kind === 'USDC_ALLOWANCE' ? { current: formatUnits(s.current), currentRaw: s.current.toString() } : { current: s.ok }),
    markets: s.markets,
  };
}

export default defineCommand({
  path: ['approve', 'check'],
  effect: 'read',
  summary: "Show the USDC allowance and CTF approvals your wallet needs for a market's venue",
  description:
    'Reads on chain: USDC allowance to venue.exchange (needed to BUY), CTF setApprovalForAll to venue.exchange (to SELL), and to venue.adapter on NegRisk markets.\n\nExit codes: 0 every approval in place, 8 some missing (the table or JSON still printed; pm approve set sends them), 2 no RPC configured or wrong chain, 7 RPC unreachable or not a Base node (no contract where Base has it).',
  args: { slug: { description: 'market slug' } },
  options: { all: { type: 'boolean', description: 'every venue of the active markets' }, rpcUrl: RPC_URL },
  examples: ['pm approve check btc-100k-2026', 'pm approve check --all', 'pm --json approve check us-election-2028-democrat | jq .missing'],
  run: async (ctx, { args, opts }) => {
    const markets = await marketsFor(ctx, 'approve check', args.slug, opts);
    const owner = await walletAddress(ctx);
    const chain = await connectChain(ctx, opts);
    const states = await chain.approvals(owner, approvalTargets(markets, ['BUY', 'SELL']));
    const missing = states.filter((s) => !s.ok).length;
    // An allowance below what the wallet holds is the user's choice, but a BUY spending more is refused: named.
    const held = await chain.usdc(owner).catch(() => undefined);
    const low = states.flatMap((s) =>
      s.kind === 'USDC_ALLOWANCE' && s.ok && held !== undefined && s.current < held && s.current < UNLIMITED_FLOOR
        ? [{ label: s.label, current: s.current, held }]
        : [],
    );
    ctx.out.data(
      {
        wallet: owner,
        chainId: chain.setup.chainId,
        rpcUrl: chain.setup.rpcUrl,
        approvals: states.map(stateJson),
        missing,
        ...(held !== undefined && { usdcHeld: formatUnits(held), usdcHeldRaw: held.toString() }),
      },
      () => {
        ctx.out.line(`wallet ${owner} on chain ${chain.setup.chainId}`);
        ctx.out.table(
          [
            { header: 'TOKEN' },
            { header: 'TARGET' },
            { header: 'ADDRESS', fit: cutFirst(2, 12) },
            { header: 'NEEDED FOR', fit: cutFirst(1, 12) },
            { header: 'STATE' },
          ],
          states.map((s) => [
            s.kind === 'USDC_ALLOWANCE' ? 'USDC allowance' : 'CTF approval',
            s.label,
            s.spender,
            s.requiredFor,
            stateText(s),
          ]),
        );
        if (!missing) ctx.out.info('all approvals in place');
        for (const s of low)
          ctx.out.info(
            `note: the USDC allowance to ${s.label} is ${formatUnits(s.current)} USDC, below the ${formatUnits(s.held)} USDC this wallet holds: a BUY spending more is refused (pm approve set ${args.slug ?? '--all'} --unlimited raises it)`,
          );
      },
    );
    // Missing approvals are a failed check, as in pm doctor: a script can tell (exit 8).
    if (missing)
      throw new PartialFailureError(`${missing} approval${missing > 1 ? 's' : ''} missing`, {
        hint: `Send them with: pm approve set ${args.slug ?? '--all'}`,
      });
  },
});
