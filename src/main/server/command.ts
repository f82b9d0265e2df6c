import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { deskpilotHome } from '../paths.js';
import type { BridgeService } from '../service/types.js';
import { isLoopbackHost } from './auth.js';
// server.js (ws, zod, the bridge) loads only when serve really starts: `deskpilot --help`
// and every other command stay free of it (the CLI's start-up budget, issue 13 item 10).
import type { RunningServer } from './server.js';
import { portFlag } from './port-flag.js';
import { defaultWebRoot } from './web-root.js';

/** `deskpilot serve` refused its flags (TLS files, an unsafe bind): the CLI's usage exit code. */
const SERVE_USAGE_EXIT = 2;

interface ServeFlags {
  port: number;
  host: string;
  webRoot?: string;
  /** PEM files for HTTPS/WSS. */
  tlsCert?: string;
  tlsKey?: string;
  /** Plain HTTP off loopback, knowingly. */
  insecureRemote?: boolean;
  /** Runs act on a private virtual desktop of this process's own (Linux). */
  virtualDisplay?: boolean;
  screenSize?: ScreenSize;
}

export interface ScreenSize {
  width: number;
  height: number;
}

/**
 * How `serve --virtual-display` gets its private desktop: the CLI's launcher
 * (cli/virtual-display-run.ts), handed in because the server layer sits below the CLI.
 * The parent starts the desktop and runs the same command line again as a child whose
 * whole environment is that desktop's; the child is the server.
 */
export interface VirtualDesktopLauncher {
  defaultSize: ScreenSize;
  parseSize(value: string): ScreenSize;
  /** True in the child (its DISPLAY is the desktop the parent made). */
  isOnVirtualDisplay(): boolean;
  /** Starts the desktop, runs this command line on it, stops it; the child's exit code. */
  run(size: ScreenSize, stderr: NodeJS.WritableStream, who: string): Promise<number>;
}

/** Reads the --tls-cert/--tls-key pair; both or neither, with a clear error. */
async function readTls(flags: ServeFlags): Promise<{ cert: Buffer; key: Buffer } | undefined> {
  const { ServeRefusedError } = await import('./server.js');
  if (!flags.tlsCert && !flags.tlsKey) return undefined;
  if (!flags.tlsCert || !flags.tlsKey) throw new ServeRefusedError('--tls-cert and --tls-key go together: give both PEM files');
  const read = (file: string, what: string) => {
    try {
      return readFileSync(file);
    } catch (err) {
      throw new ServeRefusedError(`cannot read the TLS ${what} ${file}: ${(err as Error).message}`);
    }
  };
  return { cert: read(flags.tlsCert, 'certificate'), key: read(flags.tlsKey, 'key') };
}

export interface ServeRunOptions extends ServeFlags {
  home?: string;
  /** Where to print the banner (stdout by default). */
  out?: (line: string) => void;
  err?: (line: string) => void;
  /** The service; by default the real one on this desktop (keys from the environment only). */
  service?: BridgeService;
  /** This process runs on a private virtual desktop (`--virtual-display`, in the child): its display and size. */
  virtualDesktop?: { display: string; description: string };
}

/** Starts `deskpilot serve` and prints how to connect. */
export async function runServe(options: ServeRunOptions): Promise<{ server: RunningServer; service: BridgeService }> {
  const out = options.out ?? ((l: string) => process.stdout.write(`${l}\n`));
  const err = options.err ?? ((l: string) => process.stderr.write(`${l}\n`));
  const webRoot = path.resolve(options.webRoot ?? defaultWebRoot());
  if (!existsSync(path.join(webRoot, 'index.html'))) {
    err(`deskpilot serve: no browser build in ${webRoot}; run \`npm run build:web\` first (npm run serve does both)`);
  }
  const { refuseUnsafeBind, startServer } = await import('./server.js');
  const tls = await readTls(options);
  refuseUnsafeBind(options.host, Boolean(tls), Boolean(options.insecureRemote));
  let service = options.service;
  if (!service) {
    // nut.js binds to the display when first loaded: load os-control only now.
    const { createComputer } = await import('../../os-control/index.js');
    const { createBridgeService } = await import('../service/index.js');
    service = createBridgeService({
      surface: 'serve',
      home: options.home ?? deskpilotHome(),
      // The CLI ships OCR, so serve's page can export trajectories (the app cannot: export-run.ts).
      exportTrajectory: async (runDir, outDir, exportOptions) => (await import('../agent/replay/index.js')).exportTrajectory(runDir, outDir, exportOptions),
      // And redact: `sessions export --redact`'s filter (OCR words the secret detectors flag).
      redactImage: async (image) => (await import('../agent/ocr-redact.js')).redactSecretWords(image),
      computer: await createComputer(),
      ...(options.virtualDesktop ? { virtualDesktop: options.virtualDesktop } : {}),
    });
  }
  let server: RunningServer;
  try {
    server = await startServer({
      service,
      webRoot,
      port: options.port,
      host: options.host,
      ...(tls ? { tls } : {}),
      ...(options.insecureRemote ? { insecureRemote: true } : {}),
      log: (l) => err(`serve: ${l}`),
    });
  } catch (error) {
    if (!options.service) await service.close();
    throw error;
  }
  if (!isLoopbackHost(server.host)) {
    err('');
    err('  !!! WARNING: deskpilot serve is listening on ' + server.host + ', NOT on loopback.');
    err('  !!! Anyone who can reach this machine and learns the token can watch your screen and approve actions.');
    if (tls) err('  !!! Traffic is encrypted (TLS); wrong tokens are rate-limited per address.');
    else err('  !!! Traffic is plain HTTP (--insecure-remote): use it only on a network you trust, or tunnel it (ssh -L).');
    err('');
  }
  out(`DeskPilot is serving the supervision UI. Open this URL (it carries the access token):`);
  out(`  ${server.url}`);
  if (options.virtualDesktop) out(`Runs started here act on a private virtual desktop (${options.virtualDesktop.description}), not on your screen; watch it live in the UI.`);
  out(`Press Ctrl-C to stop.`);
  return { server, service };
}

/** `deskpilot serve [--port N] [--host 127.0.0.1]` — for the CLI to register. */
export function registerServeCommand(program: Command, virtualDesktop: VirtualDesktopLauncher): void {
  program
    .command('serve')
    .description('serve the supervision UI to a browser over an authenticated HTTP + WebSocket connection')
    .option('--port <n>', 'port to listen on (0 = any free port)', portFlag, 7717)
    .option('--host <address>', 'address to listen on; anything but loopback is reachable from other machines', '127.0.0.1')
    .option('--web-root <dir>', 'folder of the browser build (default: out/web of this package)')
    .option('--tls-cert <file>', 'PEM certificate: serve HTTPS/WSS (required with --tls-key off loopback)')
    .option('--tls-key <file>', 'PEM private key for --tls-cert')
    .option('--insecure-remote', 'listen off loopback over plain HTTP anyway (token and screen travel in clear text)')
    .option('--virtual-display', 'Linux: runs act on a private virtual desktop (Xvfb + openbox + a private session bus), off your screen; watch it live in the UI')
    .option('--screen-size <WxH>', `the virtual desktop's size (default ${virtualDesktop.defaultSize.width}x${virtualDesktop.defaultSize.height}; with --virtual-display)`, (v: string) => virtualDesktop.parseSize(v))
    .action(async (flags: ServeFlags) => {
      if (flags.screenSize && !flags.virtualDisplay) {
        process.stderr.write('deskpilot serve: --screen-size is the size of a --virtual-display: give both\n');
        process.exit(SERVE_USAGE_EXIT);
      }
      const size = flags.screenSize ?? virtualDesktop.defaultSize;
      if (flags.virtualDisplay && !virtualDesktop.isOnVirtualDisplay()) {
        process.exit(await virtualDesktop.run(size, process.stderr, 'runs started from this server act on a desktop of their own'));
      }
      const onVirtual = flags.virtualDisplay ? { virtualDesktop: { display: process.env.DISPLAY ?? '', description: `Xvfb ${process.env.DISPLAY ?? ''} ${size.width}x${size.height}` } } : {};
      let started: Awaited<ReturnType<typeof runServe>>;
      try {
        started = await runServe({ ...flags, ...onVirtual });
      } catch (error) {
        const { ServeRefusedError } = await import('./server.js');
        if (!(error instanceof ServeRefusedError)) throw error;
        process.stderr.write(`deskpilot serve: ${error.message}\n`);
        // A usage error: exit 2 (EXIT.usage in src/main/cli/exit-codes.ts; the server layer may not import the CLI's).
        process.exit(SERVE_USAGE_EXIT);
      }
      const { server, service } = started;
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
