// A small on-disk cache under PM_HOME/cache for facts that rarely change (a market's venue and
// position ids, the caller's profile id and fee rate), so placing an order costs one request.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDir, writePrivateFileAtomic } from './fsutil.js';

interface Entry<T> {
  at: number;
  value: T;
}

export class JsonCache {
  private data: Record<string, Entry<unknown>> | undefined;
  private readonly file: string;

  constructor(home: string, name: string, private readonly ttlMs: number, private readonly now: () => number = Date.now) {
    this.file = join(home, 'cache', `${name}.json`);
  }

  private load(): Record<string, Entry<unknown>> {
    if (this.data) return this.data;
    try {
      this.data = existsSync(this.file) ? (JSON.parse(readFileSync(this.file, 'utf8')) as Record<string, Entry<unknown>>) : {};
    } catch {
      this.data = {}; // a corrupt cache is just a cold cache
    }
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
 * The last request start per API token, shared by the processes of one PM_HOME, so that a
 * script running pm in a loop keeps the exchange's 300 ms spacing without a 429. Best effort:
 * plain small files, no locks (a lost update costs at most one 429, which is retried).
 */
export function filePaceStore(home: string): { load(key: string): number; save(key: string, t: number): void } {
  const dir = join(home, 'run');
  const file = (key: string): string => join(dir, `pace-${createHash('sha256').update(key).digest('hex').slice(0, 16)}`);
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
  };
}
