// The package entry for Node bots: `import { createClient } from 'pm-cli'`. The only place the
// library reads the environment: PM_HOME (unset or empty: the platform config directory, as the CLI) for
// the config, keystore, order journal and the rate limiter shared with every pm process; and
// HTTPS_PROXY / HTTP_PROXY / NO_PROXY (either case) unless the `proxy` option is given.
import { defaultHome } from '../core/config.js';
import { proxyFromEnvironment } from '../core/proxy.js';
import { createClient as create } from './client.js';
import type { ClientOptions, PmClient } from './client.js';

export type { CallOptions, PmClient } from './client.js';
export type { ReplaceInput } from '../core/trade/replace.js';
// A name for every result and stream record (src/lib/types.ts).
export type * from './types.js';
/** @deprecated The CLI's batch-file line; use OrderRequest (typed side, outcome and type). */
export type { OrderInput } from '../core/trade/terms.js';
export type { AmountsJson, BalanceJson } from '../core/balance.js';
// The typed errors (PmError and one class per exit code), errorMessage, ErrorCode.
export * from '../core/errors.js';

/** createClient's options; `home` defaults to PM_HOME or the platform config directory. */
export type Options = Omit<ClientOptions, 'home'> & { home?: string | undefined };

/**
 * A client of the exchange: markets, orders (exactly-once by clientId), portfolio, partner,
 * funds and live streams, every call abortable, errors typed with `code`, `hint` and `exitCode`.
 * @example
 * import { createClient } from 'pm-cli';
 * const pm = createClient({ baseUrl: 'http://127.0.0.1:8787', privateKey, token: { tokenId, secret } });
 * const r = await pm.orders.place({ market: 'btc-100k-2026', side: 'buy', outcome: 'yes', price: '0.42', size: '10', clientId: 'bot-1' });
 */
export function createClient(options: Options = {}): PmClient {
  // (PM_HOME set but empty is unset, as for the CLI: not the current directory.)
  const home = options.home ?? (process.env['PM_HOME'] || defaultHome(process.env));
  return create({ ...options, home, proxy: options.proxy ?? proxyFromEnvironment(process.env) });
}
