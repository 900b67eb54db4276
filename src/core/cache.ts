// A small on-disk cache under PM_HOME/cache for facts that rarely change (a market's venue and
// position ids, the caller's profile id and fee rate), so placing an order costs one request.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writePrivateFileAtomic } from './fsutil.js';

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
