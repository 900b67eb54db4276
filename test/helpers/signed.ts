// One HMAC-signed request to a sandbox, signed here with node:crypto (wire-facts §2.1), not with
// the client's code: timestamp, method, raw target and raw body.
import { createHmac } from 'node:crypto';

export interface SignedAnswer {
  status: number;
  json: Record<string, unknown>;
}

export async function signedFetch(
  baseUrl: string,
  token: { tokenId: string; secret: string },
  method: string,
  target: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<SignedAnswer> {
  const raw = body === undefined ? '' : JSON.stringify(body);
  const ts = new Date().toISOString();
  const sig = createHmac('sha256', Buffer.from(token.secret, 'base64')).update(`${ts}\n${method}\n${target}\n${raw}`).digest('base64');
  const r = await fetch(`${baseUrl}${target}`, {
    method,
    headers: {
      ...headers,
      'lmts-api-key': token.tokenId,
      'lmts-timestamp': ts,
      'lmts-signature': sig,
      ...(raw ? { 'content-type': 'application/json' } : {}),
    },
    ...(raw ? { body: raw } : {}),
  });
  const text = await r.text();
  return { status: r.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}
