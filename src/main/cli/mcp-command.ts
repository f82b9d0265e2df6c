import { InvalidArgumentError, type Command } from 'commander';
import { deskpilotHome } from '../paths.js';
import { addPolicyOptions, addProviderOptions, policyFromFlags, type ChoiceFlags } from './run-flags.js';

interface McpFlags extends ChoiceFlags {
  port: number;
  host: string;
  webRoot?: string;
}

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65_535) throw new InvalidArgumentError('expected a port number 0–65535');
  return n;
}

/**
 * `deskpilot mcp`: this desktop as an MCP server on stdio, under DeskPilot's
 * supervision. The provider flags choose the model of `run_task`; the policy flags
 * what waits for a person, who answers on the supervision page whose URL is printed
 * on stderr (stdout is the protocol's alone).
 */
export function registerMcpCommand(program: Command): Command {
  const mcp = program
    .command('mcp')
    .description('serve this desktop to an MCP client over stdio (Claude Code, Codex, Claude Desktop …), every action supervised');
  addProviderOptions(mcp);
  addPolicyOptions(mcp)
    .option('--port <n>', 'port of the supervision page (0 = any free port)', port, 0)
    .option('--host <address>', 'address of the supervision page (loopback only: the page carries approvals)', '127.0.0.1')
    .option('--web-root <dir>', 'folder of the browser build (default: out/web of this package)')
    .action(async (flags: McpFlags) => {
      // First of all: nothing but the protocol may reach stdout from here on.
      const { takeStdoutForProtocol } = await import('../mcp-server/stdout-guard.js');
      const output = takeStdoutForProtocol();
      const log = (line: string) => process.stderr.write(`deskpilot mcp: ${line}\n`);
      const { isLoopbackHost } = await import('../server/auth.js');
      if (!isLoopbackHost(flags.host)) {
        log(`refusing to serve the supervision page on ${flags.host}: use a loopback address (tunnel it with ssh -L to watch from elsewhere)`);
        process.exit(2);
      }
      const home = deskpilotHome();
      // nut.js binds to the display when first loaded: load os-control only now.
      const { createComputer } = await import('../../os-control/index.js');
      const { createBridgeService } = await import('../service/index.js');
      const { startMcp } = await import('../mcp-server/start.js');
      const computer = createComputer();
      const service = createBridgeService({ home, computer });
      const running = await startMcp({
        service,
        computer,
        home,
        policy: policyFromFlags(flags),
        taskChoices: { profile: flags.profile, provider: flags.provider, model: flags.model, baseUrl: flags.baseUrl, apiKeyEnv: flags.apiKeyEnv },
        env: process.env,
        input: process.stdin,
        output,
        page: { port: flags.port, host: flags.host, ...(flags.webRoot ? { webRoot: flags.webRoot } : {}) },
        log,
      });
      log('serving this desktop over MCP on stdio.');
      log(`supervision page (approve, watch, stop): ${running.page.url}`);
      let stopping = false;
      const stop = (reason: string) => {
        if (stopping) process.exit(130);
        stopping = true;
        log(`${reason}: stopping…`);
        void running.stop(reason).finally(async () => {
          await service.close().catch(() => {});
          process.exit(0);
        });
      };
      process.on('SIGINT', () => stop('stopped with Ctrl-C'));
      process.on('SIGTERM', () => stop('stopped with SIGTERM'));
      await running.closed;
      await service.close().catch(() => {});
      process.exit(0);
    });
  return mcp;
}
