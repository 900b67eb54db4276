// `pm partner onboard`: the wizard (or its flag-only form for scripts) that takes a partner
// from nothing to a sub-account that can trade: kind, name, create, allowances with progress,
// funding (or how to), an optional first delegated order, and a profile for the child.
import { defineCommand } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { confirm, input, select } from '../../cli/prompt.js';
import { checkProfileName } from '../../core/config.js';
import type { ProfileConfig } from '../../core/config.js';
import { ConflictError, UsageError } from '../../core/errors.js';
import { formatUnits, parseUnits } from '../../core/money.js';
import { parseDuration } from '../../core/duration.js';
import { checkDisplayName, createPartnerAccount } from '../../core/partner.js';
import type { Allowances } from '../../core/partner.js';
import { parseOrderInput, placeParsed } from '../../core/trade/index.js';
import { tradingDeps } from '../order/deps.js';
import { checkModeFlags, childSigner, dropChildKey, partnerApi, recordSubAccount, waitWithProgress } from './common.js';

const slugOf = (name: string): string | undefined => {
  const s = name
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);
  return s === '' ? undefined : s;
};

function guardProfile(ctx: Context, name: string): string {
  checkProfileName(name);
  if (ctx.config().profiles[name])
    throw new ConflictError(`a profile named ${name} already exists`, {
      hint: 'Pick another with --profile-name, or remove it with pm profile remove.',
    });
  return name;
}

export default defineCommand({
  path: ['partner', 'onboard'],
  summary: 'Wizard: create a sub-account, wait until it can trade, fund it, first order, save a profile',
  description:
    'Interactive on a terminal (EOA or server wallet, name, create, wait for allowances with progress, fund or show how, an optional first delegated order, a profile for the child so that pm --profile <child> … acts for it). Without a terminal the flags answer instead: pm partner onboard --server-wallet --name X --yes --wait.\n\nExit codes: 0 done, 2 bad input or a question without a TTY, 3 missing scope, 5 the child profile name is taken, 6 rate limited past the timeout, 7 allowances not ready in time.',
  options: {
    serverWallet: { type: 'boolean', description: 'a server-managed wallet (else an EOA whose key goes to the keystore)' },
    name: { type: 'string', value: 'displayName', description: 'display name (at most 44 characters)' },
    wallet: { type: 'string', value: 'name', description: 'EOA mode: use this keystore wallet' },
    profileName: {
      type: 'string',
      value: 'name',
      description: 'name of the profile saved for the child (default from the name, else child-<id>)',
    },
    wait: { type: 'boolean', description: 'wait for the allowances (server wallet)' },
    waitTimeout: { type: 'string', value: 'duration', description: 'give up waiting after this long', default: '120s' },
    fund: { type: 'string', value: 'usdc', description: 'sandbox: credit the child this many USDC' },
    firstOrder: { type: 'string', value: 'slug', description: 'server wallet: place a first delegated FOK BUY YES in this market' },
    firstAmount: { type: 'string', value: 'usdc', description: 'USDC to spend on the first order', default: '1' },
  },
  examples: [
    'pm partner onboard',
    'pm partner onboard --server-wallet --name alice-shop --yes --wait',
    'pm --json partner onboard --server-wallet --name bot-7 --yes --wait --fund 100',
  ],
  run: async (ctx, { opts }) => {
    const interactive = ctx.interactive;
    let serverWallet = opts.serverWallet;
    const wallet = opts.wallet;
    let name = checkDisplayName(opts.name);
    checkModeFlags(serverWallet, wallet);
    const timeoutMs = parseDuration(opts.waitTimeout ?? '120s', '--wait-timeout');
    const fundFlag = opts.fund;
    let fund = fundFlag === undefined ? undefined : parseUnits(fundFlag, 6, '--fund');
    let firstOrder = opts.firstOrder;
    const firstAmount = opts.firstAmount ?? '1';
    parseUnits(firstAmount, 6, '--first-amount');
    let profileName = opts.profileName;
    if (profileName !== undefined) guardProfile(ctx, profileName);
    const sandbox = ctx.sandbox;

    if (interactive) {
      if (!serverWallet && wallet === undefined) {
        serverWallet =
          (await select(
            ctx,
            'What kind of sub-account?',
            [
              { name: 'Server wallet: the exchange keeps the key and signs delegated orders', value: 'server' },
              { name: 'EOA: a new key in your keystore signs its orders', value: 'eoa' },
            ],
            'Pass --server-wallet, or nothing for an EOA.',
          )) === 'server';
      }
      if (name === undefined) {
        const n = (await input(ctx, 'Display name (at most 44 characters; empty: the address)', 'Pass --name.')).trim();
        name = checkDisplayName(n === '' ? undefined : n);
      }
      if (profileName === undefined) {
        const dflt = name !== undefined ? slugOf(name) : undefined;
        const p = (
          await input(ctx, 'Name of the pm profile for this sub-account (empty: child-<id>)', 'Pass --profile-name.', dflt)
        ).trim();
        if (p !== '') profileName = guardProfile(ctx, p);
      }
    } else if (profileName === undefined && name !== undefined && slugOf(name) !== undefined) {
      profileName = guardProfile(ctx, slugOf(name) as string);
    }

    const what = `${serverWallet ? 'a server-wallet' : 'an EOA'} sub-account${name ? ` named ${name}` : ''}`;
    if (!ctx.flags.yes) {
      if (!interactive)
        throw new UsageError(`creating ${what} needs confirmation`, { hint: 'Pass --yes (scripts), or run in a terminal.' });
      if (!(await confirm(ctx, `Create ${what}?`, true))) throw new UsageError('not created: declined');
    }

    const api = await partnerApi(ctx);
    const child = serverWallet ? null : await childSigner(ctx, wallet);
    let created;
    try {
      created = await createPartnerAccount(api, { serverWallet, displayName: name, signer: child?.signer, signal: ctx.signal });
    } catch (e) {
      if (child?.created) await dropChildKey(ctx, child.wallet);
      throw e;
    }
    const id = created.profileId;
    await recordSubAccount(ctx, id, { address: created.account, wallet: child?.wallet, serverWallet });
    ctx.out.info(`created sub-account ${id} (${created.account})`);

    // Allowances: server wallets only; an EOA sets its own approvals on chain.
    let allowances: Allowances | undefined;
    if (serverWallet && (interactive || opts.wait)) allowances = await waitWithProgress(ctx, api, id, { retry: true, timeoutMs });
    else if (serverWallet)
      ctx.out.info(`Next: pm partner allowances ${id} --retry --wait (delegated orders are refused until every target is confirmed)`);

    // Funding: the sandbox can credit it; on the exchange the partner sends USDC to the address.
    if (sandbox && fund === undefined && interactive) {
      const a = (await input(ctx, 'Fund it with how many USDC (sandbox; 0 to skip)?', 'Pass --fund <usdc>.', '100')).trim();
      fund = parseUnits(a === '' ? '0' : a, 6, 'amount');
    }
    let funded: string | undefined;
    if (fund !== undefined && fund > 0n) {
      if (!sandbox) throw new UsageError('--fund works on the sandbox only', { hint: `Send USDC on Base to ${created.account}.` });
      await api.request({
        method: 'POST',
        path: '/__sandbox/fund',
        body: { profileId: id, amount: fund.toString() },
        auth: 'none',
        retry: 'never',
      });
      funded = formatUnits(fund);
      ctx.out.info(`funded with ${funded} USDC`);
    } else if (!sandbox) ctx.out.info(`To fund it, send USDC on Base (chain 8453) to ${created.account}.`);

    // An optional first delegated order (server wallets, once ready).
    if (
      serverWallet &&
      allowances?.ready &&
      firstOrder === undefined &&
      interactive &&
      (await confirm(ctx, 'Place a first delegated order (FOK BUY YES)?', false))
    ) {
      firstOrder = (await input(ctx, 'Market slug', 'Pass --first-order <slug>.', 'btc-100k-2026')).trim();
    }
    let order: Record<string, unknown> | undefined;
    if (firstOrder !== undefined) {
      if (!serverWallet) throw new UsageError('--first-order places a delegated order: it needs --server-wallet');
      const deps = await tradingDeps(ctx, { actingAs: id });
      const parsed = parseOrderInput({
        market: firstOrder,
        side: 'buy',
        outcome: 'yes',
        type: 'fok',
        amount: firstAmount,
        onBehalfOf: id,
        delegated: true,
      });
      const { placed } = await placeParsed(deps, parsed, { journal: deps.journal, signal: ctx.signal, onNote: (n) => ctx.out.info(n) });
      order = {
        orderId: placed.orderId,
        clientOrderId: placed.clientOrderId,
        market: firstOrder,
        settlementStatus: placed.settlementStatus,
        contracts: formatUnits(placed.totals.contractsNet),
      };
      ctx.out.info(`first order ${placed.orderId}: ${String(order['contracts'])} YES shares on ${firstOrder}`);
    }

    // A profile for the child: the partner's exchange and token, acting for the child.
    const pname = profileName ?? guardProfile(ctx, `child-${id}`);
    const {
      profileId: _p,
      feeRateBps: _f,
      address: _a,
      onBehalfOf: _o,
      wallet: ownWallet,
      wsUrl: _w,
      sandbox: _s,
      ...base
    } = ctx.profile();
    const urls = ctx.endpoints();
    const childProfile: ProfileConfig = {
      ...base,
      baseUrl: urls.baseUrl,
      // A stream URL that follows the base URL is not stored (it would pin a stale one).
      ...(urls.wsSource === 'derived from base-url' || urls.wsSource === 'default' ? {} : { wsUrl: urls.wsUrl }),
      onBehalfOf: id,
      address: created.account,
      ...(child ? { wallet: child.wallet } : ownWallet !== undefined ? { wallet: ownWallet } : {}),
    };
    await ctx.editConfig((cfg) => {
      cfg.profiles[pname] = childProfile;
    });

    const result = {
      profileId: id,
      account: created.account,
      mode: serverWallet ? 'server-wallet' : 'eoa',
      displayName: name ?? created.account,
      profile: pname,
      ...(child ? { wallet: child.wallet } : {}),
      ...(allowances ? { allowances: { ready: allowances.ready, summary: allowances.summary } } : {}),
      ...(funded !== undefined ? { funded } : {}),
      ...(order ? { firstOrder: order } : {}),
    };
    ctx.out.data(result, () => {
      ctx.out.keyValue([
        ['profile id', String(id)],
        ['address', created.account],
        ['mode', result.mode],
        ['pm profile', pname],
        ...(allowances ? ([['allowances', allowances.ready ? 'ready' : 'not ready']] as [string, string][]) : []),
        ...(funded !== undefined ? ([['funded', `${funded} USDC`]] as [string, string][]) : []),
      ]);
      ctx.out.info(
        `Trade for it: pm --profile ${pname} order place <slug> buy yes --type fok --amount 5${serverWallet ? ' --delegated' : ''}`,
      );
    });
    return 0;
  },
});
