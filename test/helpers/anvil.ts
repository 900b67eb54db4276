// One anvil node (from the npm package @foundry-rs/anvil, port 0) per test file, and raw viem
// reads for assertions that must not go through pm's own chain code.
import { afterAll, beforeAll } from 'vitest';
import { createPublicClient, http, type Hex, type PublicClient } from 'viem';
import { startAnvil } from '../../src/sandbox/chain.js';
import { TestCTF, TestUSDC } from '../../src/sandbox/contracts.js';

export interface AnvilRef {
  rpcUrl: string;
  client: PublicClient;
  /** A raw JSON-RPC call (anvil_* cheat codes included). */
  rpc(method: string, params: unknown[]): Promise<unknown>;
  usdcBalance(usdc: Hex, who: Hex): Promise<bigint>;
  usdcAllowance(usdc: Hex, who: Hex, spender: Hex): Promise<bigint>;
  ctfApproved(ctf: Hex, who: Hex, operator: Hex): Promise<boolean>;
  ctfBalance(ctf: Hex, who: Hex, id: bigint): Promise<bigint>;
}

/** Starts anvil (chain id 31337 unless given) before the file's tests; stops it after. */
export function useAnvil(o: { chainId?: number } = {}): AnvilRef {
  const ref = {} as AnvilRef;
  let stop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const node = await startAnvil({ chainId: o.chainId ?? 31337 });
    stop = node.stop;
    const client = createPublicClient({ transport: http(node.rpcUrl) }) as PublicClient;
    Object.assign(ref, {
      rpcUrl: node.rpcUrl,
      client,
      rpc: async (method: string, params: unknown[]) => {
        const res = await fetch(node.rpcUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
        });
        const j = (await res.json()) as { result?: unknown; error?: { message: string } };
        if (j.error) throw new Error(j.error.message);
        return j.result;
      },
      usdcBalance: (usdc: Hex, who: Hex) =>
        client.readContract({ address: usdc, abi: TestUSDC.abi, functionName: 'balanceOf', args: [who] }),
      usdcAllowance: (usdc: Hex, who: Hex, spender: Hex) =>
        client.readContract({ address: usdc, abi: TestUSDC.abi, functionName: 'allowance', args: [who, spender] }),
      ctfApproved: (ctf: Hex, who: Hex, operator: Hex) =>
        client.readContract({ address: ctf, abi: TestCTF.abi, functionName: 'isApprovedForAll', args: [who, operator] }),
      ctfBalance: (ctf: Hex, who: Hex, id: bigint) =>
        client.readContract({ address: ctf, abi: TestCTF.abi, functionName: 'balanceOf', args: [who, id] }),
    });
  });
  afterAll(async () => {
    await stop?.();
  });
  return ref;
}
