// The agents that carry pm's connections through a proxy (src/core/proxy.ts says which), loaded
// only when a proxy applies to the target: ~24 ms of start-up on Node 24 that a direct connection
// does not pay. A forward proxy for plain http requests; a CONNECT tunnel for https requests and
// for the stream's websocket (ws and wss alike: a tunnel carries the upgrade untouched).
import type http from 'node:http';
import { HttpProxyAgent } from 'http-proxy-agent';
import { HttpsProxyAgent } from 'https-proxy-agent';

const POOL = { keepAlive: true, keepAliveMsecs: 10_000, maxSockets: 16 };

/**
 * An agent that reaches its targets through `proxy`; `onConnect` hears the status of each CONNECT
 * (a 407 is the proxy asking for credentials, told by its number, not by any message).
 * @example const agent = proxyAgent(new URL('http://proxy:3128'), true); https.get('https://api.example', { agent });
 */
export function proxyAgent(proxy: URL, tunnel: boolean, onConnect?: (status: number) => void): http.Agent {
  if (!tunnel) return new HttpProxyAgent(proxy, POOL);
  const agent = new HttpsProxyAgent(proxy, POOL);
  if (onConnect) agent.on('proxyConnect', (c: { statusCode: number }) => onConnect(c.statusCode));
  return agent;
}
