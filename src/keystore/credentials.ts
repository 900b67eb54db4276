// What a command signs with, resolved once from values the CLI hands in (this module never
// reads process.env): environment values win over the profile's stored ones, and nothing
// encrypted is opened, nor a passphrase asked for, until a command actually needs it.
import type { LocalAccount } from 'viem/accounts';
import type { Hex } from 'viem';
import { hmacSigner } from '../core/auth.js';
import { keyAccount } from './key-account.js';
import type { AuthProvider } from '../core/auth.js';
import { AuthError, UsageError, ValidationError } from '../core/errors.js';
import { isBase64 } from '../core/hmac.js';
import type { Keystore, SecretsInfo, StoredSecrets } from './store.js';
import { parsePrivateKey } from './key.js';
import type { AgentClient } from './agent.js';
import type { CredentialSource, Credentials, UnlockMode } from '../core/credentials.js';

export interface CredentialsInput {
  /** PM_PRIVATE_KEY, PM_TOKEN_ID, PM_TOKEN_SECRET, PM_API_KEY, PM_IDENTITY_TOKEN (empty = unset). */
  env: {
    privateKey?: string | undefined;
    tokenId?: string | undefined;
    tokenSecret?: string | undefined;
    apiKey?: string | undefined;
    identityToken?: string | undefined;
  };
  /**
   * What a message calls each of `env`'s values: the CLI's variables by default; the library
   * passes its option names (privateKey, token.tokenId, token.secret), which its caller set.
   */
  names?: { privateKey: string; tokenId: string; tokenSecret: string } | undefined;
  /** The profile's wallet and secrets names. */
  profile?: { wallet?: string | undefined; secrets?: string | undefined } | undefined;
  /** PM_HOME. */
  home: string;
  /** Called at most once per successful unlock, and only when something encrypted is opened. */
  passphrase: () => Promise<string>;
  /** Told of every key derivation (tests count the files opened and see them overlap). */
  onDerive?: import('./v3.js').DeriveHook | undefined;
}

/**
 * Resolves credentials: flag/env values over the profile's stored ones. A token or API key
 * from the environment replaces the stored token and key together (a script that sets
 * PM_API_KEY never gets the stored HMAC token, and never needs the passphrase for it).
 * @example const c = await resolveCredentials({ env, profile, home, passphrase }); const api = await ctx.api(await c.unlock());
 */
export async function resolveCredentials(input: CredentialsInput): Promise<Credentials> {
  const env = {
    privateKey: nonEmpty(input.env.privateKey),
    tokenId: nonEmpty(input.env.tokenId),
    tokenSecret: nonEmpty(input.env.tokenSecret),
    apiKey: nonEmpty(input.env.apiKey),
    identityToken: nonEmpty(input.env.identityToken),
  };
  const names = input.names ?? { privateKey: 'PM_PRIVATE_KEY', tokenId: 'PM_TOKEN_ID', tokenSecret: 'PM_TOKEN_SECRET' };
  if ((env.tokenId === undefined) !== (env.tokenSecret === undefined)) {
    const [set, missing] = env.tokenId !== undefined ? [names.tokenId, names.tokenSecret] : [names.tokenSecret, names.tokenId];
    throw new UsageError(`${set} is set but ${missing} is not: set both ${names.tokenId} and ${names.tokenSecret}, or neither`);
  }
  if (env.tokenSecret !== undefined && !isBase64(env.tokenSecret)) {
    throw new ValidationError(`${names.tokenSecret} is not base64`, {
      hint: 'Use the secret exactly as the exchange returned it when the token was derived.',
    });
  }
  const envKey = env.privateKey === undefined ? undefined : parsePrivateKey(env.privateKey, names.privateKey);

  const walletName = nonEmpty(input.profile?.wallet);
  const secretsName = nonEmpty(input.profile?.secrets);
  // The keystore file code (scrypt, AES) loads only when something stored is named.
  const needStore = (envKey === undefined && walletName !== undefined) || secretsName !== undefined;
  const ks: Keystore | undefined = needStore
    ? new (await import('./store.js')).Keystore(input.home, { onDerive: input.onDerive })
    : undefined;

  // The session agent of this home (pm unlock), looked for once and only when a stored secret is needed.
  let agentP: Promise<AgentClient | null> | undefined;
  const agent = (): Promise<AgentClient | null> =>
    (agentP ??= import('./agent.js').then((m) => m.AgentClient.connect(input.home)).catch(() => null));

  // One passphrase for the whole home; asked once, forgotten again if it turns out wrong.
  let pass: Promise<string> | undefined;
  const passphrase = (): Promise<string> => (pass ??= input.passphrase());
  const forget = <T>(p: Promise<T>): Promise<T> =>
    p.catch((e: unknown) => {
      pass = undefined;
      throw e;
    });

  // Wallet.
  let address: Hex | null = null;
  let walletSource: CredentialSource = null;
  let account: () => Promise<LocalAccount | null> = () => Promise.resolve(null);
  if (envKey !== undefined) {
    const acct = keyAccount(envKey);
    address = acct.address;
    walletSource = 'env';
    account = () => Promise.resolve(acct);
  } else if (walletName !== undefined && ks !== undefined) {
    walletSource = 'keystore';
    try {
      address = ks.walletAddress(walletName);
    } catch {
      // A missing or broken wallet must not break public commands; account() reports it.
    }
    let opened: Promise<LocalAccount> | undefined;
    account = () => {
      // A session agent (pm unlock) signs without the passphrase; else decrypt here.
      opened ??= agent()
        .then((a) => a?.account(walletName, address).catch(() => null) ?? null)
        .then((viaAgent) => viaAgent ?? forget(passphrase().then((p) => ks.openWallet(walletName, p))))
        .catch((e: unknown) => {
          opened = undefined;
          throw e;
        });
      return opened;
    };
  }

  // Request credentials from the environment.
  const auth: AuthProvider = {};
  const envRequestCred = env.tokenId !== undefined || env.apiKey !== undefined;
  if (env.tokenId !== undefined && env.tokenSecret !== undefined) auth.hmac = hmacSigner(env.tokenId, env.tokenSecret);
  if (env.apiKey !== undefined) auth.apiKey = apiKeyAuth(env.apiKey);
  if (env.identityToken !== undefined) auth.identity = identityAuth(env.identityToken);

  // Stored ones: only the clear-text metadata now.
  let info: SecretsInfo | undefined;
  let infoError: unknown;
  if (secretsName !== undefined && ks !== undefined) {
    try {
      info = ks.secretsInfo(secretsName);
    } catch (e) {
      infoError = e;
    }
  }
  const stored = (f: keyof StoredSecrets): boolean => info?.fields.includes(f) === true;
  const sources: Credentials['sources'] = {
    wallet: walletSource,
    token: auth.hmac ? 'env' : !envRequestCred && stored('tokenSecret') ? 'keystore' : null,
    apiKey: auth.apiKey ? 'env' : !envRequestCred && stored('apiKey') ? 'keystore' : null,
    identity: auth.identity ? 'env' : stored('identityToken') ? 'keystore' : null,
  };

  let loaded: Promise<void> | undefined;
  const load = (name: string): Promise<void> => {
    loaded ??= forget(passphrase().then((p) => (ks as Keystore).loadSecrets(name, p)))
      .then((s) => {
        if (!envRequestCred) {
          if (s.tokenId !== undefined && s.tokenSecret !== undefined) auth.hmac = hmacSigner(s.tokenId, s.tokenSecret);
          if (s.apiKey !== undefined) auth.apiKey = apiKeyAuth(s.apiKey);
          sources.token = auth.hmac ? 'keystore' : null;
          sources.apiKey = auth.apiKey ? 'keystore' : null;
        }
        if (env.identityToken === undefined) {
          if (s.identityToken !== undefined) auth.identity = identityAuth(s.identityToken);
          sources.identity = auth.identity ? 'keystore' : null;
        }
      })
      .catch((e: unknown) => {
        loaded = undefined;
        throw e;
      });
    return loaded;
  };

  const unlock = async (mode: UnlockMode = 'auto'): Promise<AuthProvider> => {
    if (secretsName === undefined) return auth;
    const wantRequest = mode !== 'identity' && !envRequestCred;
    const wantIdentity = mode !== 'auto' && env.identityToken === undefined;
    if (!wantRequest && !wantIdentity) return auth;
    if (infoError !== undefined) throw infoError;
    const needed = (wantRequest && (stored('tokenSecret') || stored('apiKey'))) || (wantIdentity && stored('identityToken'));
    if (!needed) return auth;
    // The agent serves HMAC signatures (never the secret); the API key and identity token are
    // headers that are themselves secrets, so those still come from decrypting here.
    if (wantRequest && !envRequestCred && stored('tokenSecret') && !(wantIdentity && stored('identityToken'))) {
      // An earlier call's signer (the agent's, or the decrypted secret's): nothing more to open.
      if (auth.hmac) return auth;
      const a = await agent();
      const signer = await a?.hmacSigner(secretsName, info?.tokenId).catch(() => null);
      if (signer) {
        auth.hmac = signer;
        sources.token = 'keystore';
        return auth;
      }
      // An agent runs, but without this token (derived or chosen after it started): said.
      if (a)
        await load(secretsName).catch((e: unknown) => {
          if (!(e instanceof AuthError)) throw e;
          throw new AuthError(e.shortMessage, {
            cause: e,
            hint: `The session agent (pm unlock) does not hold token ${info?.tokenId ?? ''}: it holds the secrets as they were when it started. Run pm lock, then pm unlock again; or give the passphrase (PM_PASSPHRASE, --passphrase-file).`,
          });
        });
    }
    await load(secretsName);
    return auth;
  };

  const others = new Map<string, Promise<LocalAccount>>();
  const walletAccount = (name: string): Promise<LocalAccount> => {
    if (name === walletName && envKey === undefined) {
      return account().then((a) => {
        if (!a) throw new UsageError(`cannot open the wallet ${name}`);
        return a;
      });
    }
    const known = others.get(name);
    if (known) return known;
    const opened = (async (): Promise<LocalAccount> => {
      const store = ks ?? new (await import('./store.js')).Keystore(input.home, { onDerive: input.onDerive });
      const addr = store.walletAddress(name);
      const a = await agent();
      const viaAgent = a ? await a.account(name, addr).catch(() => null) : null;
      return viaAgent ?? forget(passphrase().then((pw) => store.openWallet(name, pw)));
    })();
    opened.catch(() => others.delete(name));
    others.set(name, opened);
    return opened;
  };

  const walletNamed = async (wanted: string): Promise<string | undefined> => {
    const store = ks ?? new (await import('./store.js')).Keystore(input.home);
    return store.listWallets().find((w) => w.address !== null && w.address.toLowerCase() === wanted.toLowerCase())?.name;
  };

  return { auth, unlock, account, address, sources, walletAccount, walletNamed };
}

function nonEmpty(v: string | undefined): string | undefined {
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

function apiKeyAuth(key: string): NonNullable<AuthProvider['apiKey']> {
  return { id: `${key.slice(0, 8)}…`, header: () => key };
}

function identityAuth(token: string): NonNullable<AuthProvider['identity']> {
  // People paste the header value they saw in a browser; do not send "Bearer Bearer …".
  const bare = token.replace(/^Bearer\s+/i, '');
  return { header: () => `Bearer ${bare}` };
}
