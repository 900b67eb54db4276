// The session agent's client side (`pm unlock` starts the agent, see agent-server.ts). The agent
// holds the decrypted keystore in a short-lived local process and answers over a Unix socket in
// PM_HOME/run (directory 0700, socket 0600: only this user can connect) with signatures and HMAC
// values, never with a key or a secret. Protocol: one JSON object per line each way, answered in
// order: {op:"status"} · {op:"address",wallet} · {op:"signDigest",wallet,digest} ·
// {op:"hmac",secrets,message} · {op:"lock"}; an answer is {ok:true,…} or {ok:false,error}.
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { existsSync, lstatSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Hex } from 'viem';
import type { LocalAccount } from 'viem/accounts';
import { PmError } from '../core/errors.js';

/** PM_HOME/run: the agent's directory (0700). */
export function agentDir(home: string): string {
  return join(home, 'run');
}

/** PM_HOME/run/agent.sock. */
export function agentSocketPath(home: string): string {
  return join(agentDir(home), 'agent.sock');
}

export interface AgentStatus {
  pid: number;
  /** ISO time the agent exits by itself. */
  until: string;
  wallets: { name: string; address: Hex }[];
  secrets: { name: string; tokenId: string }[];
}

type Answer = { ok: true; [k: string]: unknown } | { ok: false; error: string };

/** One connection to a live agent. The socket holds the process open only while a request waits. */
export class AgentClient {
  private buf = '';
  private readonly waiting: { resolve: (a: Answer) => void; reject: (e: Error) => void }[] = [];
  private closed: Error | null = null;
  private statusP: Promise<AgentStatus> | undefined;

  private constructor(private readonly socket: Socket) {
    socket.setEncoding('utf8');
    socket.unref();
    socket.on('data', (chunk: string) => {
      this.buf += chunk;
      for (let nl = this.buf.indexOf('\n'); nl >= 0; nl = this.buf.indexOf('\n')) {
        const line = this.buf.slice(0, nl);
        this.buf = this.buf.slice(nl + 1);
        const w = this.waiting.shift();
        if (this.waiting.length === 0) socket.unref();
        try {
          w?.resolve(JSON.parse(line) as Answer);
        } catch (e) {
          w?.reject(e as Error);
        }
      }
    });
    const end = (e?: Error): void => {
      this.closed = e ?? new Error('the agent closed the connection');
      for (const w of this.waiting.splice(0)) w.reject(this.closed);
    };
    socket.on('error', end);
    socket.on('close', () => end());
  }

  /**
   * Connects to the agent of `home`, or returns null when none runs. A socket file nobody
   * listens on (an agent killed with -9) is removed.
   */
  static async connect(home: string): Promise<AgentClient | null> {
    const path = agentSocketPath(home);
    if (process.platform === 'win32' || !existsSync(path)) return null;
    return new Promise((resolve) => {
      const s = connect(path);
      s.once('connect', () => resolve(new AgentClient(s)));
      s.once('error', (e: NodeJS.ErrnoException) => {
        if (e.code === 'ECONNREFUSED') removeStaleSocket(path);
        resolve(null);
      });
    });
  }

  /** Sends one request and waits for its answer (an error answer is thrown). */
  async request(req: Record<string, unknown>): Promise<Record<string, unknown>> {
    if (this.closed) throw agentError(this.closed.message);
    const answer = await new Promise<Answer>((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.socket.ref();
      this.socket.write(`${JSON.stringify(req)}\n`);
    }).catch((e: unknown) => {
      throw agentError(e instanceof Error ? e.message : String(e));
    });
    if (!answer.ok) throw agentError(answer.error);
    return answer;
  }

  status(): Promise<AgentStatus> {
    this.statusP ??= this.request({ op: 'status' }).then(({ ok: _ok, ...s }) => s as unknown as AgentStatus);
    return this.statusP;
  }

  async signDigest(wallet: string, digest: Hex): Promise<Hex> {
    return (await this.request({ op: 'signDigest', wallet, digest }))['signature'] as Hex;
  }

  async hmac(secrets: string, message: string): Promise<string> {
    return (await this.request({ op: 'hmac', secrets, message }))['signature'] as string;
  }

  async lock(): Promise<void> {
    await this.request({ op: 'lock' });
  }

  close(): void {
    this.socket.destroy();
  }

  /**
   * A viem account for a wallet the agent holds, when its address is `expected` (a wallet file
   * replaced since `pm unlock` is not served from the old key); null otherwise.
   */
  async account(wallet: string, expected: Hex | null): Promise<LocalAccount | null> {
    const w = (await this.status()).wallets.find((x) => x.name === wallet);
    if (!w || (expected !== null && w.address.toLowerCase() !== expected.toLowerCase())) return null;
    // Orders only need sign (the digest is built locally): viem's hashing loads when used, and
    // the account is built by hand as viem's toAccount builds it (which would load viem).
    const viem = () => import('./agent-viem.js');
    const sign = ({ hash }: { hash: Hex }): Promise<Hex> => this.signDigest(wallet, hash);
    const account = {
      address: w.address,
      nonceManager: undefined,
      sign,
      signAuthorization: undefined,
      signMessage: async ({ message }: { message: Parameters<typeof import('viem').hashMessage>[0] }) =>
        sign({ hash: (await viem()).hashMessage(message) }),
      signTypedData: async (td: Parameters<typeof import('viem').hashTypedData>[0]) => sign({ hash: (await viem()).hashTypedData(td) }),
      // As viem's own signTransaction: sign the serialized payload (EIP-4844 without sidecars).
      async signTransaction(tx: Parameters<LocalAccount['signTransaction']>[0], o: Parameters<LocalAccount['signTransaction']>[1] = {}) {
        const { keccak256, parseSignature, serializeTransaction } = await viem();
        const serializer = o.serializer ?? serializeTransaction;
        const signable = tx.type === 'eip4844' ? { ...tx, sidecars: false as const } : tx;
        const sig = parseSignature(await sign({ hash: keccak256(await serializer(signable)) }));
        return (await serializer(tx, sig)) as never;
      },
      source: 'custom',
      type: 'local',
    };
    return account as unknown as LocalAccount;
  }

  /** An HMAC signer for stored secrets the agent holds under this token id; null otherwise. */
  async hmacSigner(
    secrets: string,
    tokenId: string | undefined,
  ): Promise<{ tokenId: string; sign: (m: string) => Promise<string> } | null> {
    const s = (await this.status()).secrets.find((x) => x.name === secrets);
    if (!s || (tokenId !== undefined && s.tokenId !== tokenId)) return null;
    return { tokenId: s.tokenId, sign: (m) => this.hmac(secrets, m) };
  }
}

export { processAlive } from '../core/filelock.js';

/** Removes a socket file nobody listens on (only a socket, never another kind of file). */
export function removeStaleSocket(path: string): void {
  try {
    if (lstatSync(path).isSocket()) rmSync(path, { force: true });
  } catch {
    // gone already
  }
}

function agentError(message: string): PmError {
  return new PmError(`the session agent failed: ${message}`, {
    hint: 'pm lock ends it; commands then ask for the passphrase again (or run pm unlock).',
  });
}
