// `pm partner onboard`: the wizard (or its flag-only form for scripts) that takes a partner
// from nothing to a sub-account that can trade: kind, name, create, allowances with progress,
// funding (or how to), an optional first delegated order, and a profile for the child.
// The child's profile is saved as soon as the sub-account exists and records what is left, so an
// interrupted onboarding (Ctrl-C, an error) is picked up with --resume where it stopped.
import { defineCommand } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { toPmError } from '../../cli/errors.js';
import { confirm, input, select, validating } from '../../cli/prompt.js';
import { checkProfileName } from '../../core/config.js';
import type { OnboardingState, ProfileConfig } from '../../core/config.js';
import { ConflictError, InterruptedError, NotFoundError, PmError, UsageError, withHint } from '../../core/errors.js';
import type { ApiClient } from '../../core/http.js';
import { getMarket } from '../../core/markets.js';
import { formatUnits, parseUnits } from '../../core/money.js';
import { parseDuration } from '../../core/duration.js';
import { checkDisplayName, getAllowances, parseProfileId, subAccountRecordOf } from '../../core/partner.js';
import { fundProfile } from '../../core/sandboxctl.js';
import type { Allowances } from '../../core/partner.js';
import { checkTradable, newClientOrderId, parseOrderInput, placeParsed } from '../../core/trade/index.js';
import { checkModeFlags, createChild, partnerApi, underWhom, waitWithProgress } from './common.js';

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

/** child-<id>, or child-<id>-2… when taken: the sub-account exists, so its profile must be saved. */
function freeChildName(taken: Record<string, ProfileConfig>, id: number): string {
  for (let n = 1; ; n++) {
    const name = n === 1 ? `child-${id}` : `child-${id}-${n}`;
    if (!taken[name]) return name;
  }
}

/** A sub-account being onboarded: it exists, and its pm profile is saved. */
interface Job {
  id: number;
  account: string;
  profile: string;
  wallet?: string | undefined;
  state: OnboardingState;
}

const STEP_TEXT: Record<OnboardingState['step'], string> = {
  allowances: 'waiting for its allowances',
  fund: 'funding',
  'first-order': 'the first order',
};

const isState = (v: unknown): v is OnboardingState => {
  const o = v as Partial<OnboardingState> | null;
  return typeof o === 'object' && o !== null && typeof o.serverWallet === 'boolean' && typeof o.step === 'string' && o.step in STEP_TEXT;
};

/** The saved child profiles whose onboarding stopped before its end. */
function unfinished(ctx: Context): Job[] {
  return Object.entries(ctx.config().profiles).flatMap(([name, p]) =>
    isState(p.onboarding) && p.onBehalfOf !== undefined && p.address !== undefined
      ? [
          {
            id: p.onBehalfOf,
            account: p.address,
            profile: name,
            wallet: p.onboarding.serverWallet ? undefined : p.wallet,
            state: p.onboarding,
          },
        ]
      : [],
  );
}

/** The profile that acts for a child: the partner's exchange and token, acting for the child. */
function childProfile(ctx: Context, id: number, account: string, childWallet: string | undefined, state: OnboardingState): ProfileConfig {
  const {
    profileId: _p,
    feeRateBps: _f,
    address: _a,
    onBehalfOf: _o,
    wallet: ownWallet,
    wsUrl: _w,
    sandbox: _s,
    subAccounts: _sa,
    onboarding: _ob,
    ...base
  } = ctx.profile();
  const urls = ctx.endpoints();
  return {
    ...base,
    baseUrl: urls.baseUrl,
    // A stream URL that follows the base URL is not stored (it would pin a stale one).
    ...(urls.wsSource === 'derived from base-url' || urls.wsSource === 'default' ? {} : { wsUrl: urls.wsUrl }),
    onBehalfOf: id,
    address: account,
    ...(childWallet !== undefined ? { wallet: childWallet } : ownWallet !== undefined ? { wallet: ownWallet } : {}),
    // How the child signs, as on the partner's profile: its orders go delegated or signed by childWallet.
    subAccounts: {
      [String(id)]: {
        address: account,
        ...(childWallet !== undefined ? { wallet: childWallet } : {}),
        ...(state.serverWallet ? { serverWallet: true } : {}),
      },
    },
    onboarding: state,
  };
}

/** Records how far the job got (or, with no step left, that it is finished) in its profile. */
async function saveProgress(ctx: Context, job: Job, done = false): Promise<void> {
  await ctx.editConfig((cfg) => {
    const p = cfg.profiles[job.profile];
    if (!p) return;
    if (done) delete p.onboarding;
    else p.onboarding = job.state;
  });
}

/** The unfinished onboarding of sub-account `id`, or (made by an older pm) its record on the partner's profile. */
async function resumeJob(ctx: Context, id: number): Promise<Job> {
  const job = unfinished(ctx).find((j) => j.id === id);
  if (job) return job;
  const done = Object.entries(ctx.config().profiles).find(([, p]) => p.onBehalfOf === id);
  if (done)
    throw new UsageError(`the onboarding of sub-account ${id} is finished (pm profile ${done[0]}): nothing to resume`, {
      hint: `Trade for it: pm --profile ${done[0]} order place <slug> buy yes --type fok --amount 5`,
    });
  const rec = subAccountRecordOf(ctx.config(), ctx.profile(), ctx.baseUrl, id);
  if (rec) {
    const state: OnboardingState = { step: 'allowances', serverWallet: rec.serverWallet === true };
    const made: Job = { id, account: rec.address, profile: freeChildName(ctx.config().profiles, id), wallet: rec.wallet, state };
    await ctx.editConfig((cfg) => {
      cfg.profiles[made.profile] = childProfile(ctx, id, rec.address, rec.wallet, state);
    });
    ctx.out.info(`saved pm profile ${made.profile} for sub-account ${id}`);
    return made;
  }
  const open = unfinished(ctx).map((j) => j.id);
  throw new NotFoundError(`no unfinished onboarding of sub-account ${id} under ${ctx.home}`, {
    hint: open.length ? `Unfinished: ${open.join(', ')} (pm partner onboard --resume <id>).` : 'See pm partner list for your sub-accounts.',
  });
}

/** The same error (same exit code), with how to go on added to its hint. */
function withResumeHint(e: unknown, job: Job): PmError {
  return withHint(
    toPmError(e),
    `Sub-account ${job.id} exists and its pm profile ${job.profile} is saved; pick up where it stopped with: pm partner onboard --resume ${job.id}`,
  );
}

export default defineCommand({
  path: ['partner', 'onboard'],
  effect: 'money',
  longRunning: true,
  describe: (ctx, { opts }) =>
    opts.resume !== undefined
      ? `Finish onboarding sub-account ${opts.resume} ${underWhom(ctx)}${opts.firstOrder ? ` (a first FOK BUY of ${opts.firstAmount} USDC in ${opts.firstOrder})` : ''}`
      : `Onboard a new sub-account ${underWhom(ctx)}: ${opts.serverWallet ? 'a server wallet' : opts.wallet ? `an EOA signed by ${opts.wallet}` : 'a server wallet or an EOA (asked next)'}${opts.name ? ` named ${opts.name}` : ''}${opts.fund ? `, funded with ${opts.fund} USDC` : ''}${opts.firstOrder ? `, then a first FOK BUY of ${opts.firstAmount} USDC in ${opts.firstOrder}` : ''}`,
  summary: 'Wizard: create a sub-account, wait until it can trade, fund it, first order, save a profile',
  description:
    "Interactive on a terminal (EOA or server wallet, name, create, wait for allowances with progress, fund or show how, an optional first delegated order, a profile for the child so that pm --profile <child> … acts for it). Without a terminal the flags answer instead: pm partner onboard --server-wallet --name X --yes --wait.\n\nThe child's profile is saved as soon as the sub-account exists. An onboarding cut short (Ctrl-C, an error, a timeout) says so, and pm partner onboard --resume <profileId> picks it up where it stopped (the wizard also offers it; it also finishes a sub-account made with pm partner create); --wait, --fund and --first-order answer the steps left.\n\nExit codes: 0 done, 2 bad input, a question without a TTY, or --resume of an onboarding already finished (nothing to resume), 3 missing scope, 4 --resume of an id pm holds no onboarding or sub-account of under PM_HOME, 5 the child profile name is taken, 6 rate limited past the timeout, 7 allowances not ready in time, 130 interrupted (resumable).",
  options: {
    serverWallet: { type: 'boolean', description: 'a server-managed wallet (else an EOA whose key goes to the keystore)' },
    name: { type: 'string', value: 'displayName', description: 'display name (at most 44 characters)' },
    wallet: { type: 'string', value: 'name', description: 'EOA mode: use this keystore wallet' },
    profileName: {
      type: 'string',
      value: 'name',
      description: 'name of the profile saved for the child (default from the name, else child-<id>)',
    },
    resume: { type: 'string', value: 'profileId', description: 'finish the interrupted onboarding of this sub-account' },
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
    'pm partner onboard --resume 2003',
  ],
  check: (ctx, { opts }) => void commandLine(ctx, opts),
  run: async (ctx, { opts }) => {
    const interactive = ctx.interactive;
    const { timeoutMs, fund, firstAmount, resume } = commandLine(ctx, opts);

    // Made when first needed: unlocking the partner's credentials may ask the passphrase, after the questions.
    let client: ApiClient | undefined;
    const apiOf = async (): Promise<ApiClient> => {
      client ??= await partnerApi(ctx);
      return client;
    };
    let job: Job;
    if (resume !== undefined) {
      job = await resumeJob(ctx, resume);
      // A new --first-order for a resumed onboarding (the one that was wrong) is checked first too.
      if (opts.firstOrder !== undefined) await orderMarket(await apiOf(), opts.firstOrder);
    } else {
      const fresh = !opts.serverWallet && opts.wallet === undefined && opts.name === undefined && opts.profileName === undefined;
      const open = interactive && fresh ? unfinished(ctx) : [];
      const pick =
        open.length > 0
          ? await select(
              ctx,
              'An onboarding was left unfinished. Go on with it?',
              [
                ...open.map((j) => ({
                  name: `Resume sub-account ${j.id}${j.state.displayName ? ` (${j.state.displayName})` : ''}: next, ${STEP_TEXT[j.state.step]}`,
                  value: String(j.id),
                })),
                { name: 'No: create a new sub-account', value: 'new' },
              ],
              'Pass --resume <profileId>.',
            )
          : 'new';
      const again = open.find((j) => String(j.id) === pick);
      // Before anything is created: a market an order cannot go to (a group…) is exit 2 here, not
      // after a sub-account exists.
      if (!again && opts.firstOrder !== undefined) await orderMarket(await apiOf(), opts.firstOrder);
      job = again ?? (await create(ctx, apiOf, { ...opts, fund }));
    }

    try {
      return await finish(ctx, await apiOf(), job, { fund, firstOrder: opts.firstOrder, firstAmount, wait: opts.wait, timeoutMs });
    } catch (e) {
      throw withResumeHint(e, job);
    }
  },
});

type OnboardOpts = {
  serverWallet: boolean;
  wallet: string | undefined;
  name: string | undefined;
  profileName: string | undefined;
  resume: string | undefined;
  waitTimeout: string | undefined;
  fund: string | undefined;
  firstOrder: string | undefined;
  firstAmount: string | undefined;
};

/**
 * The command line, read offline (and PM_HOME's profiles): called before the guard asks, and
 * again by the run before anything is created, so that a step that cannot work is refused before
 * the confirmation and never stops a half-made onboarding.
 */
function commandLine(ctx: Context, opts: OnboardOpts) {
  const timeoutMs = parseDuration(opts.waitTimeout ?? '120s', '--wait-timeout');
  const fund = opts.fund === undefined ? undefined : parseUnits(opts.fund, 6, '--fund');
  const firstAmount = opts.firstAmount ?? '1';
  if (fund !== undefined && fund > 0n && !ctx.sandbox)
    throw new UsageError('--fund works on the sandbox only', { hint: 'On the exchange, send USDC on Base to the sub-account address.' });
  // The first order as it will be placed (a placeholder id for the child).
  if (parseUnits(firstAmount, 6, '--first-amount') === 0n)
    throw new UsageError('--first-amount must be greater than 0', { hint: 'for example --first-amount 5 (USDC to spend)' });
  if (opts.firstOrder !== undefined)
    parseOrderInput({
      market: opts.firstOrder,
      side: 'buy',
      outcome: 'yes',
      type: 'fok',
      amount: firstAmount,
      onBehalfOf: 1,
      delegated: true,
    });
  if (opts.resume !== undefined) {
    if (opts.serverWallet || opts.wallet !== undefined || opts.name !== undefined || opts.profileName !== undefined)
      throw new UsageError('--resume goes on with a sub-account that exists', {
        hint: 'Drop --server-wallet, --wallet, --name and --profile-name (they were answered when it was created).',
      });
    return { timeoutMs, fund, firstAmount, resume: parseProfileId(opts.resume, '--resume') };
  }
  // What create checks first, before its questions.
  checkDisplayName(opts.name);
  checkModeFlags(opts.serverWallet, opts.wallet);
  if (opts.profileName !== undefined) guardProfile(ctx, opts.profileName);
  // The kind is known unless the wizard asks it (a terminal, and neither --server-wallet nor --wallet).
  if (!ctx.interactive || opts.serverWallet || opts.wallet !== undefined) checkFirstOrderKind(opts.firstOrder, opts.serverWallet);
  return { timeoutMs, fund, firstAmount, resume: undefined };
}

/** A first order is a delegated one: it needs a server wallet. */
function checkFirstOrderKind(firstOrder: string | undefined, serverWallet: boolean): void {
  if (firstOrder !== undefined && !serverWallet) throw new UsageError('--first-order places a delegated order: it needs --server-wallet');
}

/** The questions (or flags), the creation, and the child's profile saved at once. */
async function create(
  ctx: Context,
  apiOf: () => Promise<ApiClient>,
  opts: {
    serverWallet: boolean;
    wallet?: string | undefined;
    name?: string | undefined;
    profileName?: string | undefined;
    firstOrder?: string | undefined;
    fund?: bigint | undefined;
  },
): Promise<Job> {
  const interactive = ctx.interactive;
  let serverWallet = opts.serverWallet;
  const wallet = opts.wallet;
  let name = checkDisplayName(opts.name);
  checkModeFlags(serverWallet, wallet);
  let profileName = opts.profileName;
  if (profileName !== undefined) guardProfile(ctx, profileName);

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
    // Each answer is checked as it is given and asked again in place.
    if (name === undefined) {
      const n = (
        await input(
          ctx,
          'Display name (at most 44 characters; empty: the address)',
          'Pass --name.',
          undefined,
          validating((v) => checkDisplayName(v.trim() === '' ? undefined : v.trim())),
        )
      ).trim();
      name = n === '' ? undefined : n;
    }
    if (profileName === undefined) {
      const dflt = name !== undefined ? slugOf(name) : undefined;
      const p = (
        await input(
          ctx,
          // The default the prompt fills in is what Enter gives: say that one.
          `Name of the pm profile for this sub-account (${dflt !== undefined ? `Enter: ${dflt}` : 'empty: child-<id>'})`,
          'Pass --profile-name.',
          dflt,
          validating((v) => v.trim() === '' || guardProfile(ctx, v.trim())),
        )
      ).trim();
      if (p !== '') profileName = p;
    }
  } else if (profileName === undefined && name !== undefined && slugOf(name) !== undefined) {
    profileName = guardProfile(ctx, slugOf(name) as string);
  }
  checkFirstOrderKind(opts.firstOrder, serverWallet);

  const api = await apiOf();
  // An answer pm cannot read: an EOA child is found by its address, else the message says how to look.
  const created = await createChild(ctx, api, { serverWallet, displayName: name, wallet });
  const id = created.profileId;
  // From here on the sub-account exists (recorded above): save its profile before anything else can fail.
  const state: OnboardingState = { step: 'allowances', serverWallet, ...(name !== undefined ? { displayName: name } : {}) };
  const job: Job = { id, account: created.account, profile: '', wallet: created.wallet, state };
  await ctx.editConfig((cfg) => {
    // A name taken meanwhile (another pm process) falls back to child-<id>, never to an overwrite.
    job.profile = profileName !== undefined && !cfg.profiles[profileName] ? profileName : freeChildName(cfg.profiles, id);
    cfg.profiles[job.profile] = childProfile(ctx, id, created.account, created.wallet, state);
  });
  ctx.out.info(`created sub-account ${id} (${created.account}); saved pm profile ${job.profile} for it`);
  return job;
}

/** The steps after creation, from where the job stands: allowances, funding, a first order. */
async function finish(
  ctx: Context,
  api: ApiClient,
  job: Job,
  o: { fund: bigint | undefined; firstOrder: string | undefined; firstAmount: string; wait: boolean; timeoutMs: number },
): Promise<void> {
  const interactive = ctx.interactive;
  const sandbox = ctx.sandbox;
  const st = job.state;
  const serverWallet = st.serverWallet;
  const id = job.id;
  // A first order asked for is saved with the onboarding now, its client id fixed: a run cut
  // short before it (a lost funding answer, Ctrl-C) is resumed with it, never silently without.
  if (o.firstOrder !== undefined && st.firstOrder?.market !== o.firstOrder) {
    st.firstOrder = { market: o.firstOrder, amount: o.firstAmount, clientOrderId: newClientOrderId() };
    await saveProgress(ctx, job);
  }

  // Allowances: server wallets only; an EOA sets its own approvals on chain.
  let allowances: Allowances | undefined;
  if (st.step === 'allowances') {
    // A first order asked for needs them confirmed: it waits for them too.
    if (serverWallet && (interactive || o.wait || o.firstOrder !== undefined))
      allowances = await waitWithProgress(ctx, api, id, { retry: true, timeoutMs: o.timeoutMs });
    else if (serverWallet)
      ctx.out.info(`Next: pm partner allowances ${id} --retry --wait (delegated orders are refused until every target is confirmed)`);
    st.step = 'fund';
    await saveProgress(ctx, job);
  }

  // Funding: the sandbox can credit it; on the exchange the partner sends USDC to the address.
  let funded: bigint | undefined;
  let fundingUnknown: { amount: bigint; hint: string } | undefined;
  // An earlier run's deposit whose answer was lost: it may have been made, and a second credits again.
  const earlier =
    typeof st.funding?.amountRaw === 'string' && /^\d+$/.test(st.funding.amountRaw) ? BigInt(st.funding.amountRaw) : undefined;
  if (st.step === 'fund' && earlier !== undefined) {
    fundingUnknown = {
      amount: earlier,
      hint: `Look at its balance (pm --profile ${job.profile} balance); if it is missing: pm sandbox fund ${formatUnits(earlier)} --to ${id}`,
    };
    ctx.out.warn(
      `the deposit of ${formatUnits(earlier)} USDC an earlier run sent to sub-account ${id} has an unknown outcome: not funding it again. ${fundingUnknown.hint}`,
    );
    delete st.funding;
    st.step = 'first-order';
    await saveProgress(ctx, job);
  }
  if (st.step === 'fund') {
    let fund = o.fund;
    if (sandbox && fund === undefined && interactive) {
      const a = (
        await input(
          ctx,
          'Fund it with how many USDC (sandbox; 0 to skip)?',
          'Pass --fund <usdc>.',
          '100',
          validating((v) => parseUnits(v.trim() === '' ? '0' : v, 6, 'the amount')),
        )
      ).trim();
      fund = parseUnits(a === '' ? '0' : a, 6, 'the amount');
    }
    if (fund !== undefined && fund > 0n) {
      // Saved before it is sent: a run cut short before the answer leaves its outcome to look at.
      st.funding = { amountRaw: fund.toString() };
      await saveProgress(ctx, job);
      await fundProfile(api, id, fund).catch(async (e: unknown) => {
        // Refused outright (nothing credited): no outcome to look at.
        if (!(e instanceof PmError && (e.code === 'UNKNOWN_STATE' || (e instanceof InterruptedError && e.sent)))) {
          delete st.funding;
          await saveProgress(ctx, job);
        }
        throw e;
      });
      delete st.funding;
      funded = fund;
      ctx.out.info(`funded with ${formatUnits(fund)} USDC`);
    } else if (!sandbox) ctx.out.info(`To fund it, send USDC on Base (chain 8453) to ${job.account}.`);
    st.step = 'first-order';
    await saveProgress(ctx, job);
  }

  // An optional first delegated order (server wallets, once ready). One asked for before an
  // interruption is sent again with the same client id: placed at most once.
  let firstOrder = o.firstOrder ?? st.firstOrder?.market;
  let amount = o.firstOrder === undefined && st.firstOrder ? st.firstOrder.amount : o.firstAmount;
  if (serverWallet && firstOrder === undefined && interactive) {
    const ready = allowances?.ready ?? (await getAllowances(api, id)).ready;
    if (ready && (await confirm(ctx, 'Place a first delegated order (FOK BUY YES)?', false))) {
      firstOrder = (
        await input(
          ctx,
          'Market slug',
          'Pass --first-order <slug>.',
          'btc-100k-2026',
          // Checked in place: a group (or any market an order cannot go to) is refused and asked again.
          validating((v) => orderMarket(api, v.trim())),
        )
      ).trim();
      amount = o.firstAmount;
    }
  }
  // A first order saved by an earlier run whose market an order cannot go to: asked again on a
  // terminal; in a script, the hint says how to give a new one (not the same --resume again).
  if (firstOrder !== undefined && o.firstOrder === undefined) {
    const saved = firstOrder;
    const wrong = await orderMarket(api, saved).then(
      () => undefined,
      (e: unknown) => toPmError(e),
    );
    if (wrong !== undefined && !interactive)
      throw withHint(wrong, `Give another market: pm partner onboard --resume ${id} --first-order <slug>`, 'replace');
    if (wrong !== undefined)
      firstOrder = (
        await input(
          ctx,
          'Market slug',
          'Pass --first-order <slug>.',
          'btc-100k-2026',
          validating((v) => orderMarket(api, v.trim())),
        )
      ).trim();
  }
  let order: Record<string, unknown> | undefined;
  if (firstOrder !== undefined) {
    if (!serverWallet) throw new UsageError('--first-order places a delegated order: it needs a server-wallet sub-account');
    // Resumed past the allowances step: the exchange refuses delegated orders until they are confirmed.
    allowances ??= await waitWithProgress(ctx, api, id, { retry: true, timeoutMs: o.timeoutMs });
    const parsed = parseOrderInput({
      market: firstOrder,
      side: 'buy',
      outcome: 'yes',
      type: 'fok',
      amount,
      onBehalfOf: id,
      delegated: true,
      ...(st.firstOrder?.market === firstOrder ? { clientId: st.firstOrder.clientOrderId } : {}),
    });
    st.firstOrder = { market: firstOrder, amount, clientOrderId: parsed.clientOrderId };
    await saveProgress(ctx, job);
    const deps = await ctx.tradingDeps({ onBehalfOf: id });
    const { placed } = await placeParsed(deps, parsed, { journal: deps.journal, signal: ctx.signal, onNote: (n) => ctx.out.info(n) }).catch(
      (e: unknown) => {
        // Its outcome unknown: onboard has no --client-id; the order's id is saved with the
        // onboarding, which --resume (added below) sends again under it.
        if (!(e instanceof PmError) || e.unknownClientId === undefined) throw e;
        const cid = e.unknownClientId;
        throw withHint(
          e,
          `Its client id ${cid} is saved with this onboarding: --resume sends it again under that id, never a second order. Check first: pm order status --client-id ${cid} --on-behalf-of ${id}`,
          'replace',
        );
      },
    );
    order = {
      orderId: placed.orderId,
      clientOrderId: placed.clientOrderId,
      market: firstOrder,
      settlementStatus: placed.settlementStatus,
      contracts: formatUnits(placed.totals.contractsNet),
      contractsRaw: placed.totals.contractsNet.toString(),
    };
    ctx.out.info(`first order ${placed.orderId}: ${String(order['contracts'])} YES shares on ${firstOrder}`);
  }
  await saveProgress(ctx, job, true);

  const pname = job.profile;
  const result = {
    profileId: id,
    account: job.account,
    mode: serverWallet ? 'server-wallet' : 'eoa',
    displayName: st.displayName ?? job.account,
    profile: pname,
    ...(job.wallet !== undefined ? { wallet: job.wallet } : {}),
    ...(allowances ? { allowances: { ready: allowances.ready, summary: allowances.summary } } : {}),
    ...(funded !== undefined ? { funded: formatUnits(funded), fundedRaw: funded.toString() } : {}),
    ...(fundingUnknown !== undefined
      ? {
          fundingUnknown: {
            amount: formatUnits(fundingUnknown.amount),
            amountRaw: fundingUnknown.amount.toString(),
            hint: fundingUnknown.hint,
          },
        }
      : {}),
    ...(order ? { firstOrder: order } : {}),
  };
  ctx.out.data(result, () => {
    ctx.out.keyValue([
      ['profile id', String(id)],
      ['address', job.account],
      ['mode', result.mode],
      ['pm profile', pname],
      ...(allowances ? ([['allowances', allowances.ready ? 'ready' : 'not ready']] as [string, string][]) : []),
      ...(funded !== undefined ? ([['funded', `${formatUnits(funded)} USDC`]] as [string, string][]) : []),
    ]);
    ctx.out.info(
      `Trade for it: pm --profile ${pname} order place <slug> buy yes --type fok --amount 5${serverWallet ? ' --delegated' : ''}`,
    );
  });
  return;
}

/** The market of a first order, refused (exit 2, with the reason) when an order cannot go there. */
async function orderMarket(api: ApiClient, slug: string): Promise<void> {
  checkTradable(await getMarket(api, slug));
}
