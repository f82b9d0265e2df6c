import { existsSync } from 'node:fs';
import path from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { deskpilotHome } from '../paths.js';
import type { BridgeService } from '../service/types.js';
import { isLoopbackHost } from './auth.js';
import type { RunningServer } from './server.js';
import { defaultWebRoot } from './web-root.js';

interface ServeFlags {
  port: number;
  host: string;
  webRoot?: string;
}

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65_535) throw new InvalidArgumentError('expected a port number 0–65535');
  return n;
}

export interface ServeRunOptions extends ServeFlags {
  home?: string;
  /** Where to print the banner (stdout by default). */
  out?: (line: string) => void;
  err?: (line: string) => void;
  /** The service; by default the real one on this desktop (keys from the environment only). */
  service?: BridgeService;
}

/** Starts `deskpilot serve` and prints how to connect. */
export async function runServe(options: ServeRunOptions): Promise<{ server: RunningServer; service: BridgeService }> {
  const out = options.out ?? ((l: string) => process.stdout.write(`${l}\n`));
  const err = options.err ?? ((l: string) => process.stderr.write(`${l}\n`));
  const webRoot = path.resolve(options.webRoot ?? defaultWebRoot());
  if (!existsSync(path.join(webRoot, 'index.html'))) {
    err(`deskpilot serve: no browser build in ${webRoot}; run \`npm run build:web\` first (npm run serve does both)`);
  }
  let service = options.service;
  if (!service) {
    // nut.js binds to the display when first loaded: load os-control only now.
    const { createComputer } = await import('../../os-control/index.js');
    const { createBridgeService } = await import('../service/index.js');
    service = createBridgeService({ home: options.home ?? deskpilotHome(), computer: await createComputer() });
  }
  // Loaded only for `serve`, so other commands (and --help) start without the HTTP/WebSocket stack.
  const { startServer } = await import('./server.js');
  const server = await startServer({ service, webRoot, port: options.port, host: options.host, log: (l) => err(`serve: ${l}`) });
  if (!isLoopbackHost(server.host)) {
    err('');
    err('  !!! WARNING: deskpilot serve is listening on ' + server.host + ', NOT on loopback.');
    err('  !!! Anyone who can reach this machine and learns the token can watch your screen and approve actions.');
    err('  !!! Traffic is plain HTTP: use it only on a network you trust, or tunnel it (ssh -L).');
    err('');
  }
  out(`DeskPilot is serving the supervision UI. Open this URL (it carries the access token):`);
  out(`  ${server.url}`);
  out(`Press Ctrl-C to stop.`);
  return { server, service };
}

/** `deskpilot serve [--port N] [--host 127.0.0.1]` — for the CLI to register. */
export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('serve the supervision UI to a browser over an authenticated HTTP + WebSocket connection')
    .option('--port <n>', 'port to listen on (0 = any free port)', port, 7717)
    .option('--host <address>', 'address to listen on; anything but loopback is reachable from other machines', '127.0.0.1')
    .option('--web-root <dir>', 'folder of the browser build (default: out/web of this package)')
    .action(async (flags: ServeFlags) => {
      const { server, service } = await runServe(flags);
      let stopping = false;
      const stop = async () => {
        if (stopping) return process.exit(130);
        stopping = true;
        process.stderr.write('deskpilot serve: stopping…\n');
        await server.close().catch(() => {});
        await service.close().catch(() => {});
        process.exit(0);
      };
      process.on('SIGINT', () => void stop());
      process.on('SIGTERM', () => void stop());
    });
}
