// The sandbox's chain side (`pm sandbox start --chain`): a local anvil node from the npm package
// @foundry-rs/anvil (or a running node given by URL), the test contracts deployed on it, the
// seeded accounts funded on chain, and the reads the exchange does before accepting an EOA
// order (USDC allowance for BUY, CTF approval for SELL; exchange and adapter on NegRisk).
// Without a chain none of this is loaded and no order waits on a chain read.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { setChain } from './chainref.js';
import { deployAndFund, rpcCall } from './chain/deploy.js';
import { LocalChain, type ResetPoint, type SandboxChain } from './chain/local.js';
import type { SandboxContext } from './handlers.js';

export interface ChainOptions {
  /** Use a running node instead of starting anvil. */
  rpcUrl?: string | undefined;
  /** Chain id of a started anvil (default 8453, like Base). */
  chainId?: number | undefined;
}

/** The anvil binary: the platform package of @foundry-rs/anvil, else `anvil` on PATH. */
function anvilBinary(): string {
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  const plat = process.platform === 'win32' ? 'win32' : process.platform;
  try {
    const require = createRequire(import.meta.url);
    const pkg = require.resolve(`@foundry-rs/anvil-${plat}-${arch}/package.json`);
    const bin = join(dirname(pkg), 'bin', plat === 'win32' ? 'anvil.exe' : 'anvil');
    if (existsSync(bin)) return bin;
  } catch {
    // not installed: fall back to PATH
  }
  return 'anvil';
}

/** Starts anvil on a free loopback port; resolves once it listens. */
export function startAnvil(
  o: { chainId?: number | undefined } = {},
): Promise<{ rpcUrl: string; proc: ChildProcess; stop: () => Promise<void> }> {
  const bin = anvilBinary();
  const proc = spawn(bin, ['--host', '127.0.0.1', '--port', '0', '--chain-id', String(o.chainId ?? 8453)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stop = (): Promise<void> =>
    new Promise((resolve) => {
      if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
      proc.once('exit', () => resolve());
      proc.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`anvil did not start within 15 s${err ? `: ${err.trim()}` : ''}`));
    }, 15_000);
    proc.once('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(
        new Error(
          e.code === 'ENOENT'
            ? 'anvil is not installed: npm install @foundry-rs/anvil (or its platform package), put anvil on PATH, or pass --chain-rpc <url> of a running node'
            : `could not start anvil: ${e.message}`,
        ),
      );
    });
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`anvil exited with code ${String(code)}${err ? `: ${err.trim()}` : ''}`));
    });
    proc.stderr?.on('data', (c: Buffer) => {
      err = (err + c.toString('utf8')).slice(-2000);
    });
    proc.stdout?.on('data', (c: Buffer) => {
      if (out === null) return;
      out += c.toString('utf8');
      const m = /Listening on ([\d.]+):(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        proc.removeAllListeners('exit');
        out = '';
        // Keep draining its log so the pipe never fills.
        proc.stdout?.removeAllListeners('data');
        proc.stdout?.resume();
        resolve({ rpcUrl: `http://${m[1]}:${m[2]}`, proc, stop });
      }
    });
  });
}

/**
 * Starts (or connects to) the chain for a sandbox and attaches it to `ctx`. `seeded`: the
 * sandbox's state is the fresh seed (not a stored state), so the chain as deployed is the
 * chain a reset returns to.
 */
export async function attachChain(ctx: SandboxContext, o: ChainOptions & { seeded?: boolean }): Promise<SandboxChain> {
  const node = o.rpcUrl ? null : await startAnvil({ chainId: o.chainId });
  const rpcUrl = o.rpcUrl ?? node?.rpcUrl ?? '';
  // The reset point: a snapshot of the chain as the seed has it. Taken after deployment when the
  // state is the seed; otherwise before it (a reset then reverts and deploys for the seed).
  // Null when the node has no evm_snapshot: a reset then deploys afresh (new addresses).
  let snapshot: ResetPoint | null = null;
  let deployed: Awaited<ReturnType<typeof deployAndFund>>;
  try {
    if (!o.seeded) {
      const id = await rpcCall(rpcUrl, 'evm_snapshot', []);
      if (typeof id === 'string') snapshot = { id, deployed: false };
    }
    deployed = await deployAndFund(rpcUrl, ctx.state);
    if (o.seeded) {
      const id = await rpcCall(rpcUrl, 'evm_snapshot', []);
      if (typeof id === 'string') snapshot = { id, deployed: true };
    }
  } catch (e) {
    await node?.stop();
    // (ECHAINSETUP: the CLI says it as a network error, exit 7.)
    throw Object.assign(
      new Error(`chain setup on ${rpcUrl} failed: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`, { cause: e }),
      { code: 'ECHAINSETUP', rpcUrl },
    );
  }
  const chain = new LocalChain(deployed.info, deployed.client, snapshot, async () => {
    setChain(ctx, null);
    await node?.stop();
  });
  setChain(ctx, chain);
  return chain;
}
