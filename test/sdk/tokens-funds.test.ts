// Conformance: the SDK's ApiTokenService (identity-bearer derive and capabilities, HMAC list and
// revoke) and the identity-only withdrawal allowlist that ServerWalletService.withdraw obeys.
import { describe, expect, it } from 'vitest';
import { AuthenticationError, Client } from '@limitless-exchange/sdk';
import { useSandbox } from '../helpers/sandbox.js';
import { account, pacedHttpClient, rejection, sdkClient } from './helpers.js';

const sb = useSandbox();

describe('ApiTokenService', () => {
  it('derive (identity) → use the new HMAC token → list → revoke → the token is refused', async () => {
    const p = account(sb.current, 'partner');
    const partner = sdkClient(sb.current, 'partner');
    const caps = await partner.apiTokens.getCapabilities(p.identityToken);
    expect(caps).toMatchObject({ partnerProfileId: p.profileId, tokenManagementEnabled: true });
    expect(caps.allowedScopes).toEqual(expect.arrayContaining(['trading', 'account_creation', 'delegated_signing']));

    const derived = await partner.apiTokens.deriveToken(p.identityToken, { label: 'sdk conformance', scopes: ['trading'] });
    expect(derived).toMatchObject({ tokenId: derived.apiKey, scopes: ['trading'], profile: { id: p.profileId, account: p.address } });
    expect(Buffer.from(derived.secret, 'base64').length).toBeGreaterThan(0);

    const fresh = Client.fromHttpClient(
      pacedHttpClient({ baseURL: sb.current.baseUrl, hmacCredentials: { tokenId: derived.tokenId, secret: derived.secret } }),
    );
    expect((await fresh.portfolio.getProfile()).id).toBe(p.profileId);

    const listed = await partner.apiTokens.listTokens();
    expect(listed.find((t) => t.tokenId === derived.tokenId)).toMatchObject({ label: 'sdk conformance', scopes: ['trading'] });

    expect(typeof (await partner.apiTokens.revokeToken(derived.tokenId))).toBe('string');
    const refused = await rejection(() => fresh.portfolio.getProfile());
    expect(refused).toBeInstanceOf(AuthenticationError);
    expect(refused.status).toBe(401);
  });

  it('a scope the partner may not grant is refused', async () => {
    const a = account(sb.current, 'alice');
    const alice = sdkClient(sb.current, 'alice');
    const e = await rejection(() => alice.apiTokens.deriveToken(a.identityToken, { scopes: ['account_creation'] }));
    expect([400, 403]).toContain(e.status);
  });
});

describe('withdrawal allowlist (identity) and ServerWalletService.withdraw', () => {
  it('withdraw to an allowlisted destination works only while it is on the list', async () => {
    const p = account(sb.current, 'partner');
    const partner = sdkClient(sb.current, 'partner');
    await fetch(`${sb.current.baseUrl}/__sandbox/allowances`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ confirmAfterMs: 20 }),
    });
    const child = await partner.partnerAccounts.createAccount({ createServerWallet: true });
    const fund = await fetch(`${sb.current.baseUrl}/__sandbox/fund`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ profileId: child.profileId, amount: '5000000' }),
    });
    expect(fund.status).toBe(200);
    const treasury = '0x976EA74026E726554dB657fA54763abd0C3a0aa9';

    const entry = await partner.partnerAccounts.addWithdrawalAddress(p.identityToken, { address: treasury, label: 'treasury' });
    expect(entry).toMatchObject({ profileId: p.profileId, destinationAddress: treasury, label: 'treasury', deletedAt: null });
    const w = await partner.serverWallets.withdraw({ amount: '2000000', onBehalfOf: child.profileId, destination: treasury });
    expect(w).toMatchObject({ walletAddress: child.account, destination: treasury, amount: '2000000' });

    await partner.partnerAccounts.deleteWithdrawalAddress(p.identityToken, treasury);
    const blocked = await rejection(() =>
      partner.serverWallets.withdraw({ amount: '1000000', onBehalfOf: child.profileId, destination: treasury }),
    );
    expect([400, 403]).toContain(blocked.status);
  });
});
