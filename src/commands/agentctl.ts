// What pm unlock and pm lock share: the agent's status, and ending it.
import type { Context } from '../cli/context.js';
import type { AgentStatus } from '../keystore/agent.js';
import { textTime } from '../cli/text.js';

/** The live agent's status, or null (a stale socket is removed on the way). */
async function agentStatus(ctx: Context): Promise<AgentStatus | null> {
  const { AgentClient } = await import('../keystore/agent.js');
  const c = await AgentClient.connect(ctx.home);
  if (!c) return null;
  try {
    return await c.status();
  } catch {
    return null;
  } finally {
    c.close();
  }
}

/** Prints whether an agent runs and until when (exit 0 either way). */
export async function printAgentStatus(ctx: Context): Promise<void> {
  const s = await agentStatus(ctx);
  if (!s) {
    ctx.out.data({ running: false }, () => ctx.out.line('locked: no session agent runs (pm unlock starts one)'));
    return;
  }
  ctx.out.data({ running: true, ...s }, () =>
    ctx.out.keyValue([
      ['status', 'unlocked (session agent)'],
      ['pid', String(s.pid)],
      ['until', textTime(s.until)],
      ['wallets', s.wallets.map((w) => `${w.name} ${w.address}`).join(', ') || '-'],
      ['tokens', s.secrets.map((x) => `${x.name} ${x.tokenId}`).join(', ') || '-'],
    ]),
  );
  return;
}

/** Asks the agent to end and waits (up to 5 s) until its process is gone; null when none ran. */
export async function stopAgent(ctx: Context): Promise<{ pid: number } | null> {
  const { AgentClient, processAlive } = await import('../keystore/agent.js');
  const c = await AgentClient.connect(ctx.home);
  if (!c) return null;
  let pid = 0;
  try {
    pid = (await c.status()).pid;
    await c.lock();
  } catch {
    // It closed the connection: another pm lock or pm unlock is ending it, which is what we want.
  } finally {
    c.close();
  }
  for (let i = 0; i < 100 && pid !== process.pid && processAlive(pid); i++) await new Promise((r) => setTimeout(r, 50));
  return pid > 0 ? { pid } : null;
}
