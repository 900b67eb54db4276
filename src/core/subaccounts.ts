// A partner's sub-accounts as pm knows them: what `partner create` recorded (mode, wallet, key),
// else what the exchange lists. The signer rule (trade/signer.ts) decides from this how an order
// for a sub-account is sent: unsigned for a server wallet, signed by the child's own key else.
import type { SubAccountRecord } from './config.js';
import { NotFoundError } from './errors.js';
import type { ApiClient } from './http.js';
import { listPartnerAccounts } from './partner.js';
import type { SubAccount } from './trade/signer.js';

/** At most this many pages of 25 are read to find a sub-account pm has no record of. */
const MAX_PAGES = 40;

/**
 * Sub-account `id`: from `records` (the profile's, then PM_HOME's own for script mode), else from
 * the partner's list on the exchange (asked with the partner's own client).
 * @example await findSubAccount(partnerApi, 2001, profile.subAccounts)
 */
export async function findSubAccount(
  partnerApi: ApiClient,
  id: number,
  records: (Record<string, SubAccountRecord> | undefined)[],
): Promise<SubAccount> {
  for (const r of records) {
    const rec = r?.[String(id)];
    if (rec) return { profileId: id, mode: rec.serverWallet ? 'server-wallet' : 'eoa', address: rec.address, wallet: rec.wallet };
  }
  for (let page = 1; page <= MAX_PAGES; page++) {
    const list = await listPartnerAccounts(partnerApi, { page, limit: 25 });
    const hit = list.data.find((a) => a.profileId === id);
    if (hit) {
      const mode = hit.serverWallet === true ? 'server-wallet' : hit.serverWallet === false ? 'eoa' : 'unknown';
      return { profileId: id, mode, address: hit.account || undefined };
    }
    if (!list.hasMore) break;
  }
  throw new NotFoundError(`sub-account ${id} is not one of this partner's sub-accounts`, {
    hint:
      partnerApi.words === 'flags'
        ? 'pm partner list shows them; --on-behalf-of takes one of their profile ids.'
        : 'pm.partner.list() shows them; onBehalfOf takes one of their profile ids.',
  });
}
