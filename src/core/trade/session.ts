// What signing an order needs besides the user's input: the market's venue and position ids
// (cached per slug), the owner's profile id and fee rate (cached per credential), the wallet.
import type { ApiClient } from '../http.js';
import { JsonCache } from '../cache.js';
import { parseMarket } from '../market-wire.js';
import type { Market } from '../market-wire.js';
import { getMarket } from '../markets.js';
import { profileMe } from '../tokens.js';

export interface Owner {
  profileId: number;
  feeRateBps: number;
  account: string;
}

/** Caches for one PM_HOME; the market cache is short because status can change. */
export class TradeCache {
  private readonly markets: JsonCache;
  private readonly owners: JsonCache;
  private readonly memo = new Map<string, Promise<Market>>();
  private readonly ownerMemo = new Map<string, Promise<Owner>>();

  constructor(home: string) {
    this.markets = new JsonCache(home, 'markets', 10 * 60_000);
    this.owners = new JsonCache(home, 'owners', 24 * 3_600_000);
  }

  /** The market, from memory, the disk cache (10 min) or the exchange. */
  market(api: ApiClient, slug: string): Promise<Market> {
    const key = `${api.baseUrl} ${slug}`;
    let p = this.memo.get(key);
    if (!p) {
      p = (async () => {
        const hit = this.markets.get<Record<string, unknown>>(key);
        if (hit) return parseMarket(hit);
        const m = await getMarket(api, slug);
        this.markets.set(key, m.raw);
        return m;
      })();
      p.catch(() => this.memo.delete(key));
      this.memo.set(key, p);
    }
    return p;
  }

  /** Stores fresh owner data (e.g. from pm whoami) so the next order signs with it. */
  rememberOwner(baseUrl: string, credentialId: string, owner: Owner): void {
    const key = `${baseUrl} ${credentialId}`;
    this.owners.set(key, owner);
    this.ownerMemo.set(key, Promise.resolve(owner));
  }

  /** The authenticated caller's profile id and fee rate (GET /profiles/me, cached a day; `refresh` asks again). */
  async owner(api: ApiClient, credentialId: string, o: { refresh?: boolean } = {}): Promise<Owner> {
    const key = `${api.baseUrl} ${credentialId}`;
    if (o.refresh) {
      const me = await profileMe(api);
      const fresh = { profileId: me.id, feeRateBps: me.feeRateBps, account: me.account };
      this.owners.set(key, fresh);
      const p = Promise.resolve(fresh);
      this.ownerMemo.set(key, p);
      return p;
    }
    // One lookup however many orders of a batch ask at once.
    let p = this.ownerMemo.get(key);
    if (!p) {
      p = this.owners.getOr(key, async () => {
        const me = await profileMe(api);
        return { profileId: me.id, feeRateBps: me.feeRateBps, account: me.account };
      });
      p.catch(() => this.ownerMemo.delete(key));
      this.ownerMemo.set(key, p);
    }
    return p;
  }
}
