/**
 * A `deskpilot serve` transport in its own process, for the security tests: if a
 * hostile request kills it, the test sees the process gone instead of losing its own
 * worker. argv[2]: JSON ServeOptions extras (host, tls file paths, insecureRemote,
 * limits). Prints "listening <port> <url>" once up; prints every log line on stderr.
 */
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServer } from '../../src/main/server/server.js';
import { FakeService } from '../server/fake-service.js';

interface ChildOptions {
  host?: string;
  token?: string;
  tlsCert?: string;
  tlsKey?: string;
  insecureRemote?: boolean;
  limits?: Record<string, number>;
}

const opts = JSON.parse(process.argv[2] ?? '{}') as ChildOptions;
const webRoot = mkdtempSync(path.join(tmpdir(), 'dp-sec-web-'));
mkdirSync(path.join(webRoot, 'assets'));
writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>DeskPilot</title>');
writeFileSync(path.join(webRoot, 'assets', 'app.js'), 'console.log(1)');

const server = await startServer({
  service: new FakeService(),
  webRoot,
  token: opts.token ?? 'sec-token-0123456789abcdef',
  ...(opts.host ? { host: opts.host } : {}),
  ...(opts.tlsCert && opts.tlsKey ? { tls: { cert: readFileSync(opts.tlsCert), key: readFileSync(opts.tlsKey) } } : {}),
  ...(opts.insecureRemote ? { insecureRemote: true } : {}),
  ...(opts.limits ? { limits: opts.limits } : {}),
  log: (line) => process.stderr.write(`${line}\n`),
});
process.stdout.write(`listening ${server.port} ${server.url}\n`);
process.on('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});
