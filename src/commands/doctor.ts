// `pm doctor`: is this machine ready to trade? Each check explains what it found and how to fix
// it; --json for scripts; exit 0 when no check fails (warn and skip do not fail), 8 when some
// fail.
import type { Context } from '../cli/context.js';
import { PartialFailureError } from '../core/errors.js';
import { formatUnits } from '../core/money.js';
import {
  checkExchange,
  checkHome,
  checkKeystore,
  checkNode,
  checkProxy,
  checkRpc,
  checkWebsocket,
  guarded,
  journalDir,
} from '../core/doctor.js';
import type { CheckResult } from '../core/doctor.js';
import type { Keystore } from '../keystore/index.js';
import { defineCommand } from '../cli/command.js';

/** Some checks failed: exit 8, as a batch with some failed lines (docs/architecture.md §2). */
class DoctorFailed extends PartialFailureError {
  override name = 'DoctorFailed';
}

async function runChecks(ctx: Context): Promise<CheckResult[]> {
  const { PM_TOKEN_ID, PM_TOKEN_SECRET, PM_API_KEY, PM_PRIVATE_KEY } = ctx.env;
  const envCredentials = [PM_TOKEN_ID, PM_TOKEN_SECRET, PM_API_KEY, PM_PRIVATE_KEY].some((v) => v !== undefined && v !== '');
  const out: CheckResult[] = [
    checkNode(process.versions.node, new Date(), ctx.env.NODE_EXTRA_CA_CERTS),
    checkHome(ctx.home, envCredentials),
  ];
  const config = await guarded('config', async () => {
    ctx.config();
    const name = ctx.profileName();
    const base = ctx.endpointsUnchecked().baseUrl;
    return { name: 'config', status: 'pass', detail: name ? `profile ${name}, ${base}` : `no profile: ${base}` };
  });
  out.push(config);
  if (config.status === 'fail') return out; // everything below reads the config
  const urls = ctx.endpointsUnchecked();
  if (urls.mismatch) {
    // Everything below talks to the exchange: not to a half-local, half-remote pair.
    out.push({ name: 'urls', status: 'fail', detail: urls.mismatch.shortMessage, fix: urls.mismatch.hint ?? '' });
    return out;
  }
  out.push({
    name: 'urls',
    status: 'pass',
    detail: `REST ${urls.baseUrl} (${urls.baseSource}), stream ${urls.wsUrl} (${urls.wsSource})`,
    data: { baseUrl: urls.baseUrl, wsUrl: urls.wsUrl, wsSource: urls.wsSource, sandbox: urls.sandbox },
  });
  // (A sandbox's own chain is checked by the commands that use it.)
  const rpc = ctx.configSettings().rpcUrl().value;
  out.push(await guarded('proxy', async () => checkProxy(urls.baseUrl, urls.wsUrl, ctx.proxy, rpc)));
  const p = ctx.profile();
  // Keystore: every file opens with the passphrase (only when something is kept encrypted).
  const ks = await ctx.keystore();
  const encrypted = ks.encryptedFiles().length > 0;
  out.push(
    !encrypted
      ? { name: 'keystore', status: 'skip', detail: 'no wallet or token secret stored' }
      : await guarded('keystore', async () => (await unlockedCheck(ctx)) ?? keystoreCheck(ctx, ks)),
  );
  // Exchange, latency and clock.
  let reachable = false;
  const ex = await guarded(
    'exchange',
    async () => {
      const { reach, clock } = await checkExchange(await ctx.api());
      reachable = true;
      out.push(reach);
      return clock;
    },
    `Is ${ctx.baseUrl} right (pm config get base-url)? For the sandbox: pm sandbox start --detach.`,
  );
  if (!reachable) out.push(ex, { name: 'clock', status: 'skip', detail: 'the exchange did not answer' });
  else out.push(ex);
  // Token and fee rate.
  let c: Awaited<ReturnType<Context['credentials']>> | null = null;
  const creds = await guarded('token', async () => {
    c = await ctx.credentials();
    return { name: 'token', status: 'pass', detail: '' };
  });
  if (creds.status === 'fail') out.push(creds, { name: 'fee', status: 'skip', detail: 'no usable token' });
  else if (!reachable)
    out.push(
      { name: 'token', status: 'skip', detail: 'the exchange did not answer' },
      { name: 'fee', status: 'skip', detail: 'the exchange did not answer' },
    );
  else if (
    !c ||
    ((c as { sources: { token: unknown; apiKey: unknown } }).sources.token === null &&
      (c as { sources: { apiKey: unknown } }).sources.apiKey === null)
  ) {
    out.push(
      { name: 'token', status: 'skip', detail: 'no API token configured (read-only)' },
      { name: 'fee', status: 'skip', detail: 'no API token' },
    );
  } else {
    const legacy = (c as { sources: { token: unknown } }).sources.token === null;
    let fee: CheckResult = { name: 'fee', status: 'skip', detail: 'the token was not accepted' };
    let signer: CheckResult | undefined;
    // Opening the token's secret (a passphrase missing or wrong) is not asking the exchange: the
    // token was not checked, which is not the same as refused.
    const opened = await ctx.authedApi().then(
      (api) => ({ api }),
      (e: unknown) => ({ error: e }),
    );
    const token =
      'error' in opened
        ? await guarded('token', () => Promise.reject(opened.error)).then((failed): CheckResult => {
            fee = { name: 'fee', status: 'skip', detail: 'the token was not checked' };
            return { ...failed, status: 'skip', detail: `not checked: ${failed.detail}` };
          })
        : await guarded(
            'token',
            async () => {
              const api = opened.api;
              const { profileMe, listTokens } = await import('../core/tokens.js');
              const me = await profileMe(api);
              // The wallet that signs orders must be the token's account, or every order is refused.
              const address = (c as { address: string | null } | null)?.address ?? null;
              if (address !== null && me.account && address.toLowerCase() !== me.account.toLowerCase())
                signer = {
                  name: 'signer',
                  status: 'fail',
                  detail: `the wallet ${address} is not the account of this token (${me.account}): the exchange refuses every order it signs`,
                  fix: "Sign with the token's account (its wallet: pm wallet import, or PM_PRIVATE_KEY), or use a token of this wallet's account (pm token derive with its identity token).",
                };
              else if (address !== null)
                signer = { name: 'signer', status: 'pass', detail: `the wallet ${address} is the token's account` };
              fee = {
                name: 'fee',
                status: 'pass',
                detail: `fee rate ${me.feeRateBps} bps (${(me.feeRateBps / 100).toFixed(2)}%)`,
                data: { feeRateBps: me.feeRateBps },
              };
              const tokenId = ctx.env.PM_TOKEN_ID ?? p.tokenId;
              const scopes = legacy ? null : ((await listTokens(api).catch(() => [])).find((t) => t.tokenId === tokenId)?.scopes ?? null);
              return {
                name: 'token',
                status: 'pass',
                detail: `valid for profile ${me.id}${legacy ? ' (legacy API key)' : scopes ? `, scopes ${scopes.join(',') || 'none'}` : ''}`,
                data: { profileId: me.id, scopes },
              };
            },
            'Add a valid token: pm token add (or pm init --force).',
          );
    out.push(token, fee, ...(signer ? [signer] : []));
  }
  out.push(
    reachable
      ? await checkWebsocket(ctx.wsUrl, Math.min(ctx.timeoutMs, 5000), ctx.proxy)
      : { name: 'websocket', status: 'skip', detail: 'the exchange did not answer' },
  );
  out.push(
    rpc
      ? await guarded('rpc', () => checkRpc(rpc, ctx.proxy), 'Check rpc-url (pm config set rpc-url …) or PM_RPC_URL.')
      : { name: 'rpc', status: 'skip', detail: 'no RPC URL configured' },
  );
  out.push(
    await guarded('journal', async () => {
      const { Journal } = await import('../core/trade/journal.js');
      const { WithdrawalJournal } = await import('../core/withdrawal-journal.js');
      const { RedemptionJournal } = await import('../core/redemptions.js');
      const orders = [...new Journal(journalDir(ctx.home)).latestAll().values()].filter(
        (e) => e.state === 'pending' || e.state === 'unknown',
      );
      const withdrawals = new WithdrawalJournal(ctx.home).open();
      const claims = new RedemptionJournal(ctx.home).open();
      if (orders.length + withdrawals.length + claims.length === 0)
        return { name: 'journal', status: 'pass', detail: 'no order, withdrawal or redemption with an unknown outcome' };
      const few = (ids: string[]): string => `${ids.slice(0, 3).join(', ')}${ids.length > 3 ? ', …' : ''}`;
      const detail: string[] = [];
      const fix: string[] = [];
      if (orders.length > 0) {
        detail.push(`${orders.length} order(s) sent with an unknown outcome: ${few(orders.map((e) => e.clientOrderId))}`);
        fix.push(
          `Check each: pm order status --client-id ${orders[0]?.clientOrderId ?? 'ID'} (re-running the same command with the same --client-id is safe).`,
        );
      }
      if (withdrawals.length > 0) {
        detail.push(
          `${withdrawals.length} withdrawal(s) with an unknown outcome: ${few(withdrawals.map((e) => `${e.id} (${formatUnits(BigInt(e.amount))} USDC, ${e.ts})`))}`,
        );
        fix.push(
          `Check the source wallet's transfers${withdrawals[0]?.wallet ? ` (${withdrawals[0].wallet})` : ''}, then: pm withdraw --settle ${withdrawals[0]?.id ?? 'ID'} --as sent|not-sent (an identical withdrawal is refused until then).`,
        );
      }
      if (claims.length > 0) {
        detail.push(`${claims.length} redemption(s) with an unknown outcome: ${few(claims.map((e) => e.market))}`);
        fix.push(`Re-run the claim: pm redeem ${claims[0]?.market ?? '--all'} (or pm redeem --all; a market is never paid twice).`);
      }
      return {
        name: 'journal',
        status: 'fail',
        detail: detail.join('; '),
        fix: fix.join(' '),
        data: {
          clientOrderIds: orders.map((e) => e.clientOrderId),
          withdrawals: withdrawals.map((e) => ({ id: e.id, amount: e.amount, wallet: e.wallet, ts: e.ts })),
          redemptions: claims.map((e) => ({ market: e.market, conditionId: e.conditionId, ts: e.ts })),
        },
      };
    }),
  );
  return out;
}

/**
 * Every encrypted file opened with the passphrase; on a terminal one stderr line counts the files
 * as they open (nothing when piped or with --json).
 */
async function keystoreCheck(ctx: Context, ks: Keystore): Promise<CheckResult> {
  const passphrase = await ctx.passphrase();
  const bar = ctx.out.progress(ks.encryptedFiles().length, 'opening the keystore {bar} {value}/{total} | {file}', { file: '' });
  let done = 0;
  try {
    return await checkKeystore(ks, passphrase, (f) => bar?.update(++done, { file: `${f.kind} ${f.name}` }));
  } finally {
    bar?.stop();
  }
}

/**
 * No passphrase to hand (none given, no terminal) while pm unlock's agent holds the keystore open:
 * it opened every file when it started, and commands sign through it, so that is the verdict.
 */
async function unlockedCheck(ctx: Context): Promise<CheckResult | undefined> {
  if (ctx.env.PM_PASSPHRASE !== undefined || ctx.flags.passphraseFile !== undefined || ctx.interactive) return undefined;
  const { AgentClient } = await import('../keystore/agent.js');
  const agent = await AgentClient.connect(ctx.home).catch(() => null);
  if (!agent) return undefined;
  try {
    const st = await agent.status();
    return {
      name: 'keystore',
      status: 'pass',
      detail: `open in the session agent of pm unlock (pid ${st.pid}) until ${st.until}: ${st.wallets.length} wallet(s), ${st.secrets.length} token secret(s); give the passphrase to check every file again`,
      data: { agent: { pid: st.pid, until: st.until } },
    };
  } catch {
    return undefined;
  } finally {
    agent.close();
  }
}

export default defineCommand({
  path: ['doctor'],
  effect: 'read',
  // Each check reports on its own: one that hangs must not take the others' time.
  longRunning: true,
  summary: 'Check that pm is ready to trade: Node, PM_HOME, config, proxy, keystore, exchange, clock, token, websocket, RPC, journal',
  description:
    'Runs every check and explains each failure and warning with a fix. Exit 0 when no check fails (a warning, such as a Node past its end of life, does not fail, nor does a check that is not configured, which is skipped); exit 8 when some checks fail.',
  examples: ['pm doctor', 'pm --profile sandbox doctor', 'pm doctor --json | jq \'.checks[] | select(.status == "fail")\''],
  run: async (ctx) => {
    const checks = await runChecks(ctx);
    const failed = checks.filter((c) => c.status === 'fail');
    ctx.out.data({ ok: failed.length === 0, checks }, () => {
      const mark = { pass: ctx.out.c.green('✓'), warn: ctx.out.c.yellow('!'), fail: ctx.out.c.red('✗'), skip: ctx.out.c.dim('-') };
      for (const c of checks) {
        ctx.out.line(`${mark[c.status]} ${c.name.padEnd(10)} ${c.detail}`);
        if ((c.status === 'fail' || c.status === 'warn') && c.fix) ctx.out.line(`  ${' '.repeat(10)} fix: ${c.fix}`);
      }
    });
    if (failed.length)
      throw new DoctorFailed(`${failed.length} check(s) failed: ${failed.map((c) => c.name).join(', ')}`, { hint: failed[0]?.fix });
  },
});
