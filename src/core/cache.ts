// A small on-disk cache under PM_HOME/cache for facts that rarely change (a market's venue and
// position ids, the caller's profile id and fee rate), so placing an order costs one request.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDir, writePrivateFileAtomic } from './fsutil.js';
import { FileLimiter } from './limiter.js';
import type { Limiter } from './limiter.js';
import { nodeCrypto } from './node-crypto.js';

interface Entry<T> {
  at: number;
  value: T;
}

function isEntry(e: unknown): e is Entry<unknown> {
  const v = typeof e === 'object' && e !== null ? (e as { value?: unknown }).value : undefined;
  return v !== undefined && v !== null && Number.isFinite((e as { at?: unknown }).at);
}

export class JsonCache {
  private data: Record<string, Entry<unknown>> | undefined;
  private readonly file: string;

  constructor(
    home: string,
    name: string,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.file = join(home, 'cache', `${name}.json`);
  }

  private load(): Record<string, Entry<unknown>> {
    if (this.data) return this.data;
    // Parsed into typed entries at the boundary: a damaged cache (not JSON, null, an array,
    // entries without a numeric `at`) is dropped whole and rebuilt by the next set().
    let parsed: unknown;
    try {
      parsed = existsSync(this.file) ? JSON.parse(readFileSync(this.file, 'utf8')) : {};
    } catch {
      parsed = undefined;
    }
    const ok = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) && Object.values(parsed).every((e) => isEntry(e));
    this.data = ok ? (parsed as Record<string, Entry<unknown>>) : {};
    return this.data;
  }

  get<T>(key: string): T | undefined {
    const e = this.load()[key];
    if (!e || this.now() - e.at > this.ttlMs) return undefined;
    return e.value as T;
  }

  set<T>(key: string, value: T): void {
    const d = this.load();
    d[key] = { at: this.now(), value };
    try {
      writePrivateFileAtomic(this.file, JSON.stringify(d));
    } catch {
      // Caching is best effort: a read-only PM_HOME must not break trading.
    }
  }

  /** Returns the cached value or computes, stores and returns it. */
  async getOr<T>(key: string, make: () => Promise<T>): Promise<T> {
    const hit = this.get<T>(key);
    if (hit !== undefined) return hit;
    const v = await make();
    this.set(key, v);
    return v;
  }
}

/**
 * Per-token pacing shared by the processes of one PM_HOME (PM_HOME/run), so that scripts
 * running several pm at once with one token stay within the exchange's limits without a 429.
 * `shared` is the real thing (a locked slot reservation, see limiter.ts); `load`/`save` keep
 * the older best-effort "last start" file for clients that do not use `shared`.
 */
export function filePaceStore(home: string): {
  load(key: string): number;
  save(key: string, t: number): void;
  shared(key: string, limits: { concurrency: number; minIntervalMs: number; maxHoldMs: number }): Limiter;
} {
  const dir = join(home, 'run');
  const stem = (key: string): string => nodeCrypto().createHash('sha256').update(key).digest('hex').slice(0, 16);
  const file = (key: string): string => join(dir, `pace-${stem(key)}`);
  return {
    load(key) {
      try {
        const t = Number(readFileSync(file(key), 'utf8'));
        return Number.isFinite(t) && t <= Date.now() ? t : 0;
      } catch {
        return 0;
      }
    },
    save(key, t) {
      try {
        ensurePrivateDir(dir);
        writeFileSync(file(key), String(t), { mode: 0o600 });
      } catch {
        // pacing across processes is an optimisation only
      }
    },
    shared(key, limits) {
      return new FileLimiter({ dir, name: `limit-${stem(key)}`, ...limits });
    },
  };
}
