import { cutFirst, hideFirst } from '../../cli/output.js';
import { InterruptedError } from '../../core/errors.js';
import type { Context } from '../../cli/context.js';
import { clearRunInfo, findSandbox, listenError, runningSandbox, sandboxDir, spawnDetached, writeRunInfo } from '../../core/sandboxctl.js';
import { isLoopbackUrl } from '../../core/endpoints.js';
import { ConflictError, UsageError } from '../../core/errors.js';
import { defineCommand } from '../../cli/command.js';
import { ENV_VARS } from '../../cli/env.js';
import { pmBin } from '../../cli/version.js';
import { parseDuration } from '../../core/duration.js';
import { resolve } from 'node:path';
import type { SandboxOptions } from '../../sandbox/index.js';

interface Ready {
  baseUrl: string;
  wsUrl: string;
  pid: number;
  accounts: { name: string; role: string; address: string; profileId: number; token: { tokenId: string; scopes: string[] } }[];
  markets: { slug: string; type: string; negRisk: boolean }[];
  rpcUrl?: string;
  contracts?: { usdc: string; conditionalTokens: string };
  simulate?: { rate: number; accounts: { name: string }[] };
  replay?: { file: string; total: number; speed: number | 'max'; markets: string[]; torn: boolean };
  warnings?: string[];
}

function printReady(ctx: Context, ready: Ready, line: string): void {
  if (ctx.out.isJson) {
    ctx.io.stdout.write(`${line}\n`);
    return;
  }
  for (const w of ready.warnings ?? []) ctx.out.warn(`sandbox: ${w}`);
  ctx.out.line(`sandbox ready at ${ready.baseUrl} (socket.io ${ready.wsUrl}/markets), pid ${ready.pid}`);
  ctx.out.table(
    [
      { header: 'ACCOUNT' },
      { header: 'ROLE', fit: hideFirst(3) },
      { header: 'ADDRESS' },
      { header: 'PROFILE ID', align: 'right' },
      { header: 'TOKEN ID', fit: hideFirst(2) },
      { header: 'SCOPES', fit: cutFirst(1, 10) },
    ],
    ready.accounts.map((a) => [a.name, a.role, a.address, String(a.profileId), a.token.tokenId, a.token.scopes.join(',')]),
  );
  if (ready.rpcUrl)
    ctx.out.line(
      `chain at ${ready.rpcUrl}: USDC ${ready.contracts?.usdc ?? '?'}, conditional tokens ${ready.contracts?.conditionalTokens ?? '?'}`,
    );
  if (ready.simulate)
    ctx.out.line(
      `simulating market activity: ${ready.simulate.rate} actions/s by ${ready.simulate.accounts.map((a) => a.name).join(', ')}`,
    );
  if (ready.replay)
    ctx.out.line(
      `replaying ${ready.replay.file}: ${ready.replay.total} lines of ${ready.replay.markets.join(', ')} at speed ${ready.replay.speed}${ready.replay.torn ? ' (a torn last line left out)' : ''}; where it stands: pm sandbox status, GET /__sandbox/replay`,
    );
  ctx.out.info(
    `${ready.markets.length} markets. Keys and token secrets of these public dev accounts: pm --json sandbox start … (ready line).`,
  );
  ctx.out.info(`Try: pm --base-url ${ready.baseUrl} markets list`);
}

/**
 * Upserts the "sandbox" profile so `--profile sandbox` reaches a persistent sandbox. Only the
 * base URL is stored: the stream URL follows it (and older versions' wsUrl/sandbox fields go).
 * Every other profile that pointed at this PM_HOME's sandbox where it last ran (init --sandbox
 * --account bob makes such profiles) follows it to its new URL too.
 */
function rememberProfile(ctx: Context, baseUrl: string): Promise<void> {
  return ctx.editConfig((cfg) => {
    const { wsUrl: _ws, sandbox: _flag, ...rest } = cfg.profiles['sandbox'] ?? {};
    const before = rest.baseUrl;
    cfg.profiles['sandbox'] = { ...rest, baseUrl };
    if (before === undefined || before === baseUrl || !isLoopbackUrl(before)) return;
    for (const [name, p] of Object.entries(cfg.profiles)) {
      if (name === 'sandbox' || p.baseUrl !== before) continue;
      const { wsUrl: _w, ...kept } = p;
      cfg.profiles[name] = { ...kept, baseUrl };
    }
  });
}

/**
 * Exit 5: the state under PM_HOME/sandbox is locked by a live sandbox (the lock, not server.json,
 * decides). One without a base URL is still starting (loading its state, or its chain).
 */
function alreadyRunning(pid: number, baseUrl?: string): ConflictError {
  if (!baseUrl)
    return new ConflictError(`a sandbox is starting on this state${pid ? ` (pid ${pid})` : ''}`, {
      hint: 'Wait until pm sandbox status says it runs, or stop it with pm sandbox stop; --ephemeral starts another one (in memory).',
    });
  return new ConflictError(`a sandbox is already running on this state (pid ${pid})`, {
    details: `It listens at ${baseUrl}.`,
    hint: 'Stop it with pm sandbox stop, or use --ephemeral for another one (in memory).',
  });
}

const isLoopback = (host: string): boolean => host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);

/** A detached sandbox outlives the shell: it gets none of the PM_* credentials of this environment. */
function withoutSecrets(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const secret = new Set<string>([...ENV_VARS.filter((v) => 'secret' in v && v.secret).map((v) => v.name), 'PM_TOKEN_ID']);
  return Object.fromEntries(Object.entries(env).filter(([k]) => !secret.has(k)));
}

export default defineCommand({
  path: ['sandbox', 'start'],
  effect: 'local',
  // Listening beyond loopback exposes public dev keys and unauthenticated admin routes; a chain
  // node not on this machine gets contracts deployed and accounts funded from those keys.
  effectNote: 'With `--host` not on this machine, or `--chain-rpc` not on it: **destructive** (it says why)',
  effectOf: ({ opts }) => {
    const why = risks(opts);
    return why === '' ? 'local' : { effect: 'destructive', why };
  },
  longRunning: true,
  describe: (_ctx, { opts }) => risks(opts),
  summary: 'Start the embedded exchange on 127.0.0.1',
  options: {
    port: { type: 'port', value: 'port', description: 'TCP port (0 picks a free one)', default: 8787 },
    host: { type: 'string', value: 'host', description: 'address to listen on', default: '127.0.0.1' },
    ephemeral: { type: 'boolean', description: 'keep state in memory only' },
    detach: { type: 'boolean', description: 'run in the background (see sandbox status/stop)' },
    chain: { type: 'boolean', description: 'run a local chain beside it (anvil from npm): contracts, funded accounts, on-chain approvals' },
    chainRpc: { type: 'string', value: 'url', description: 'like --chain, on a running node (anvil, hardhat) at this JSON-RPC URL' },
    simulate: { type: 'boolean', description: 'simulate market activity: bob and a few bots quote and trade on timers (off by default)' },
    simulateRate: { type: 'positiveInt', value: 'n', description: 'with --simulate: actions per second over all markets (default 4)' },
    replay: {
      type: 'string',
      value: 'file',
      description: 'replay a recording of pm record: its markets, book and trades over time (docs/recording.md)',
    },
    speed: {
      type: 'string',
      value: 'n|max',
      description: 'with --replay: recorded time scale, 1 real time (default), 10 ten times faster, max as fast as it goes',
    },
    from: {
      type: 'string',
      value: 'time',
      description: 'with --replay: start at this ISO 8601 time, or this long after the recording began (90s, 5m)',
    },
    loop: { type: 'boolean', description: 'with --replay: start over at the end (a recorded resolution is then not applied)' },
  },
  examples: [
    'pm sandbox start',
    'pm sandbox start --chain --port 0 --ephemeral',
    'pm sandbox start --port 0 --ephemeral --json',
    'pm sandbox start --detach && pm sandbox status',
    'pm sandbox start --simulate --detach && pm --profile sandbox book btc-100k-2026 --watch',
    'pm sandbox start --simulate --simulate-rate 20 --ephemeral',
    'pm sandbox start --replay btc.ndjson --speed 10 --ephemeral',
    'pm sandbox start --replay btc.ndjson --speed max --from 5m --loop --detach',
  ],
  run: async (ctx, { opts }) => {
    const port = opts.port;
    const host = opts.host;
    const ephemeral = opts.ephemeral;
    const chainRpc = opts.chainRpc;
    const chain = opts.chain || chainRpc !== undefined ? { rpcUrl: chainRpc } : undefined;
    const simulateRate = opts.simulateRate;
    if (simulateRate !== undefined && !opts.simulate)
      throw new UsageError('--simulate-rate needs --simulate', { hint: 'pm sandbox start --simulate --simulate-rate 20' });
    if (simulateRate !== undefined && simulateRate > 1000)
      throw new UsageError(`--simulate-rate must be at most 1000 actions per second, got ${simulateRate}`);
    const simulate = opts.simulate ? { rate: simulateRate } : undefined;
    const replay = await replayOptions(opts);
    if (!ephemeral) {
      const running = await findSandbox(ctx.home);
      if (running) throw alreadyRunning(running.pid, running.baseUrl);
    }
    if (!isLoopback(host)) ctx.io.stderr.write(`${ctx.out.c.red('WARNING')}: ${publicHost(host)}\n`);
    if (opts.detach) {
      const bin = pmBin();
      const args = [
        '--json',
        'sandbox',
        'start',
        '--port',
        String(port),
        '--host',
        host,
        ...(ephemeral ? ['--ephemeral'] : []),
        ...(chain ? (chainRpc ? ['--chain-rpc', chainRpc] : ['--chain']) : []),
        ...(simulate ? ['--simulate', ...(simulateRate !== undefined ? ['--simulate-rate', String(simulateRate)] : [])] : []),
        ...(replay ? replayArgs(opts) : []),
      ];
      // (Whatever needed a yes had it: the guard ran for this command.)
      const line = await spawnDetached(ctx.home, bin, ['--yes', ...args], withoutSecrets(ctx.io.env));
      const ready = JSON.parse(line) as Ready;
      printReady(ctx, ready, line);
      if (!ctx.out.isJson) ctx.out.info('running in the background: pm sandbox status | pm sandbox stop');
      return;
    }
    const { startSandbox } = await import('../../sandbox/index.js');
    let handle;
    try {
      handle = await startSandbox({ port, host, dataDir: ephemeral ? null : sandboxDir(ctx.home), chain, simulate, replay });
    } catch (e) {
      const locked = e as { code?: string; holder?: { pid: number; baseUrl?: string } };
      if (locked.code === 'ESANDBOXLOCKED') throw alreadyRunning(locked.holder?.pid ?? 0, locked.holder?.baseUrl);
      throw listenError(e, host, port);
    }
    const info = handle.info;
    // An ephemeral one beside a running sandbox leaves that one the sandbox status and stop act on.
    const other = ephemeral ? runningSandbox(ctx.home) : null;
    if (!other || other.pid === process.pid)
      writeRunInfo(ctx.home, {
        pid: process.pid,
        baseUrl: info.baseUrl,
        wsUrl: info.wsUrl,
        startedAt: new Date().toISOString(),
        ephemeral,
        ...(info.rpcUrl !== undefined ? { rpcUrl: info.rpcUrl } : {}),
      });
    if (!ephemeral) await rememberProfile(ctx, info.baseUrl);
    printReady(ctx, info, JSON.stringify(info));
    const signal = ctx.signal;
    const reason = await new Promise<unknown>((resolve) => {
      if (!signal) return;
      if (signal.aborted) resolve(signal.reason);
      signal.addEventListener('abort', () => resolve(signal.reason), { once: true });
    });
    await handle.close();
    clearRunInfo(ctx.home, process.pid);
    const sig = (reason as { signal?: string } | undefined)?.signal;
    // SIGTERM (pm sandbox stop) is the ordinary end of a server; Ctrl-C is an interruption (130).
    if (sig === 'SIGINT') throw new InterruptedError('sandbox stopped (Ctrl-C)');
    ctx.out.info('sandbox stopped');
  },
});

interface ReplayFlags {
  simulate: boolean | undefined;
  replay: string | undefined;
  speed: string | undefined;
  from: string | undefined;
  loop: boolean | undefined;
}

/** --replay and its flags, checked (exit 2), with the recording read once to refuse a bad file before anything starts. */
async function replayOptions(opts: ReplayFlags): Promise<SandboxOptions['replay']> {
  if (opts.replay === undefined) {
    if (opts.speed !== undefined || opts.from !== undefined || opts.loop)
      throw new UsageError('--speed, --from and --loop go with --replay FILE', { hint: 'pm sandbox start --replay btc.ndjson --speed 10' });
    return undefined;
  }
  if (opts.simulate) throw new UsageError('--replay and --simulate do not go together: the replay is the market activity');
  let speed: number | 'max' = 1;
  if (opts.speed !== undefined && opts.speed !== 'max') {
    speed = /^\d{1,5}(\.\d{1,3})?$/.test(opts.speed) ? Number(opts.speed) : Number.NaN;
    if (!(speed > 0 && speed <= 10_000)) throw new UsageError(`--speed must be a number from 0.001 to 10000, or max, got "${opts.speed}"`);
  } else if (opts.speed === 'max') speed = 'max';
  let from: { at: number } | { offsetMs: number } | undefined;
  if (opts.from !== undefined) {
    const at = Date.parse(opts.from);
    if (/^\d{4}-\d\d-\d\d/.test(opts.from) && Number.isFinite(at)) from = { at };
    else from = { offsetMs: parseDuration(opts.from, '--from', { min: 0, max: 366 * 86_400_000 }) };
  }
  const file = resolve(opts.replay);
  const { readRecording, RecordingError } = await import('../../sandbox/index.js');
  try {
    readRecording(file);
  } catch (e) {
    if (e instanceof RecordingError) throw new UsageError(e.message, { hint: 'Replay a file written by pm record (docs/recording.md).' });
    throw e;
  }
  return { file, speed, from, loop: opts.loop === true };
}

/** The replay flags again, for the detached sandbox (the file as an absolute path). */
function replayArgs(opts: ReplayFlags): string[] {
  return [
    '--replay',
    resolve(opts.replay ?? ''),
    ...(opts.speed !== undefined ? ['--speed', opts.speed] : []),
    ...(opts.from !== undefined ? ['--from', opts.from] : []),
    ...(opts.loop ? ['--loop'] : []),
  ];
}

/** What starting this sandbox does beyond this machine ('' when nothing). */
function risks(opts: { host: string; chainRpc?: string | undefined }): string {
  const out: string[] = [];
  if (!isLoopback(opts.host)) out.push(publicHost(opts.host));
  if (opts.chainRpc !== undefined && !isLoopbackUrl(opts.chainRpc))
    out.push(
      `--chain-rpc ${opts.chainRpc} is not on this machine: the sandbox deploys its contracts there and sends transactions from PUBLIC dev keys`,
    );
  return out.join('; and ');
}

function publicHost(host: string): string {
  return `--host ${host} makes the sandbox reachable from other machines: its seeded accounts use PUBLIC dev keys and its admin routes (faults, reset) have no authentication`;
}
