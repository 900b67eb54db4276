// What the library's calls run on: the client core (HTTP, the limiter, journals, signing, the
// stream) and the core functions of every namespace. A bundle of its own (scripts/build.mjs),
// loaded by src/lib/client.ts on the first call that needs it, so that `require('pm-cli')`
// compiles and runs only the package's facade (createClient, the option checks, the errors).
export { randomUUID } from 'node:crypto';
export { ClientCore } from '../core/clientcore.js';
export { slugFrom } from '../core/market-input.js';
export { bookJson, marketJson } from '../core/market-wire.js';
export {
  getMarket,
  getOrderBook,
  outcomeBook,
  listAllMarkets,
  listMarkets,
  marketPage,
  marketPageJson,
  priceHistory,
  pricePointJson,
  searchMarkets,
} from '../core/markets.js';
export {
  checkDisplayName,
  createSubAccount,
  getAllowances,
  listPartnerAccounts,
  recordSubAccountIn,
  retryAllowances,
  waitForAllowances,
} from '../core/partner.js';
export {
  fetchPnl,
  fetchPositions,
  fetchTrades,
  historyEntries,
  historyEntryJson,
  pnlJson,
  positionsJson,
  tradeJson,
} from '../core/portfolio.js';
export {
  cancelOrders,
  lineInput,
  oneOf,
  orderStatus,
  parseOrderInput,
  placeParsed,
  parseBatch,
  runBatch,
  settleFromStatus,
} from '../core/trade/index.js';
export { cancelAllResult, cancelEverywhere, oldOrderCheck, replaceOrder, replaceResult, replaceUnknown } from '../core/trade/replace.js';
export { batchResult, cancelEntries, placedJson, placeResult, statusJson } from '../core/trade/views.js';
export { listOrders } from '../core/trade/list.js';
export { openWatch } from '../core/watch.js';
export { watchRecord } from '../core/watch-records.js';
export { profileMe } from '../core/tokens.js';
export { RedemptionJournal, redeemOnce } from '../core/redemptions.js';
export { WithdrawalJournal } from '../core/withdrawal-journal.js';
export { allowlistHint, notOwnAccount, withdrawOnce } from '../core/withdrawals.js';
export { redeemJson, withdrawJson } from '../core/funds-json.js';
export {
  addWithdrawalAddress,
  listWithdrawalAddresses,
  parseAddress,
  parseAmount,
  removeWithdrawalAddress,
  withdrawBody,
} from '../core/funds.js';

// Loaded within this bundle on the call that needs them (secrets, the chain): not when it loads.
export const credentialsModule = () => import('../keystore/credentials.js');
export const keyModule = () => import('../keystore/key.js');
export const secp256k1Module = () => import('../keystore/secp256k1.js');
export const keyAccountModule = () => import('../keystore/key-account.js');
export const keystoreModule = () => import('../keystore/store.js');
export const balanceModule = () => import('../core/balance.js');
