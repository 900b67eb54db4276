// pm sandbox start --chain-rpc <a node not on this machine> deploys contracts and funds accounts
// there from PUBLIC dev keys: it asks first, as --host 0.0.0.0 does (--yes in a script, else
// exit 2 and nothing sent). Before: it went straight to the node. And a node that cannot be
// reached is a network error (exit 7, with a hint), not exit 1 "looks like a bug".
// (0.0.0.0 is not loopback by pm's rule, and a connection to it stays on this machine.)
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runPm, useTempHomes } from '../helpers/run.js';

const newHome = useTempHomes();
let server: net.Server;
let connections = 0;
let port = 0;
beforeEach(async () => {
  connections = 0;
  // A "node" that answers every request 404 and closes: every attempt is counted.
  server = net.createServer((s) => {
    connections++;
    s.once('data', () => s.end('HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n'));
    s.on('error', () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterEach(async () => {
  await new Promise<void>((r) => server.close(() => r()));
});

describe('pm sandbox start --chain-rpc <not this machine>', () => {
  it('in a script without --yes: exit 2, the reason said, nothing sent to the node', async () => {
    const r = await runPm(['--json', 'sandbox', 'start', '--port', '0', '--ephemeral', '--chain-rpc', `http://0.0.0.0:${port}`], {
      env: { PM_HOME: newHome(), CI: '1' },
    });
    expect(r.code, r.stderr).toBe(2);
    const err = (JSON.parse(r.stderr) as { error: { code: string; message: string; hint: string } }).error;
    expect(err.message).toMatch(/needs a confirmation/);
    expect(`${err.message} ${err.hint}`).toMatch(/not on this machine/);
    expect(connections).toBe(0);
  });

  it('with --yes it goes ahead; a node it cannot talk to is exit 7 with a hint', async () => {
    const r = await runPm(['--json', '--yes', 'sandbox', 'start', '--port', '0', '--ephemeral', '--chain-rpc', `http://0.0.0.0:${port}`], {
      env: { PM_HOME: newHome(), CI: '1' },
    });
    expect(r.code, r.stderr).toBe(7);
    const err = (JSON.parse(r.stderr) as { error: { code: string; message: string; hint: string } }).error;
    expect(err.message).toMatch(/chain setup on http:\/\/0\.0\.0\.0:\d+ failed/);
    expect(err.hint).not.toMatch(/bug/);
    expect(connections).toBeGreaterThan(0);
  });

  it('a node on loopback asks nothing (the usual anvil)', async () => {
    const r = await runPm(['--json', 'sandbox', 'start', '--port', '0', '--ephemeral', '--chain-rpc', `http://127.0.0.1:${port}`], {
      env: { PM_HOME: newHome(), CI: '1' },
    });
    expect(r.code, r.stderr).toBe(7); // not refused: it tried, and the node closed on it
    expect(connections).toBeGreaterThan(0);
  });
});
