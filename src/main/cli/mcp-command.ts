import type { Command } from 'commander';
import { visibleText } from '../../shared/visible-text.js';
import { mcpToolName } from '../agent/tools/mcp-tool-name.js';
import type { SandboxPolicy } from '../sandbox/index.js';
import { portFlag } from '../server/port-flag.js';
import { deskpilotHome } from '../paths.js';
import { EXIT } from './exit-codes.js';
import { addHarnessOption, addPolicyOptions, addProviderOptions, addSandboxOptions, policyFromFlags, sandboxRequestFromFlags, type ChoiceFlags, type SandboxFlags } from './run-flags.js';
import { taskChoicesOf, taskChoicesProblem } from './task-choices.js';

interface McpFlags extends ChoiceFlags, SandboxFlags {
  port: number;
  host: string;
  webRoot?: string;
}

/**
 * `deskpilot mcp`: this desktop as an MCP server on stdio, under DeskPilot's
 * supervision. The provider flags choose the model of `run_task`; the policy flags
 * what waits for a person, who answers on the supervision page whose URL is printed
 * on stderr (stdout is the protocol's alone). The sandbox flags are `run`'s: run_task's
 * commands run in the sandbox resolved here, before anything is served.
 */
export function registerMcpCommand(program: Command): Command {
  const mcp = program
    .command('mcp')
    .description('serve this desktop to an MCP client over stdio (Claude Code, Codex, Claude Desktop …), every action supervised');
  addProviderOptions(mcp);
  addHarnessOption(mcp);
  addSandboxOptions(mcp);
  addPolicyOptions(mcp)
    .option('--port <n>', 'port of the supervision page (0 = any free port)', portFlag, 0)
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
      const taskChoices = taskChoicesOf(flags);
      const problem = await taskChoicesProblem(home, taskChoices, process.env);
      if (problem) {
        log(problem);
        process.exit(2);
      }
      const sandbox = await mcpSandbox(home, flags, log);
      if (typeof sandbox === 'number') process.exit(sandbox);
      // nut.js binds to the display when first loaded: load os-control only now.
      const { createComputer } = await import('../../os-control/index.js');
      const { createBridgeService } = await import('../service/index.js');
      const { startMcp } = await import('../mcp-server/start.js');
      const computer = createComputer();
      const service = createBridgeService({ home, computer, surface: 'mcp' });
      const running = await startMcp({
        service,
        computer,
        home,
        policy: policyFromFlags(flags),
        sandbox,
        taskChoices,
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
  mcp
    .command('list')
    .description("the MCP servers of config.json: each one's approval, whether it starts, and the tools the agent is offered")
    .option('--json', 'one JSON object on stdout')
    .action(async (flags: { json?: boolean }) => {
      const code = await listMcpServers(flags.json ?? false);
      await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
      process.exit(code);
    });
  return mcp;
}

/**
 * The sandbox of the process's runs, or the exit code (bad config or sandbox input 2, an
 * asked-for sandbox that cannot run here 6). An MCP client chooses the folder the server
 * starts in: / or the home folder means ~/DeskPilot (sandbox-of-command.ts), said on stderr.
 */
async function mcpSandbox(home: string, flags: SandboxFlags, log: (line: string) => void): Promise<SandboxPolicy | number> {
  const { loadConfig, ConfigError } = await import('../config/index.js');
  let config;
  try {
    config = await loadConfig(home);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    log(error.message);
    return EXIT.usage;
  }
  const { sandboxOfCommand } = await import('./sandbox-of-command.js');
  const sandbox = await sandboxOfCommand(sandboxRequestFromFlags(flags), config, { started: true });
  if (!sandbox.ok) {
    log(sandbox.message);
    return sandbox.code;
  }
  for (const note of sandbox.notes) log(note);
  const { describeSandbox } = await import('../../shared/sandbox.js');
  const { summarizePolicy } = await import('../sandbox/index.js');
  log(describeSandbox(summarizePolicy(sandbox.policy, process.platform)));
  return sandbox.policy;
}

/** `deskpilot mcp list`: starts every server that is not denied, lists its offered tools, stops it. */
async function listMcpServers(json: boolean): Promise<number> {
  const { loadConfig, ConfigError } = await import('../config/index.js');
  let config;
  try {
    config = await loadConfig(deskpilotHome());
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`deskpilot: ${error.message}\n`);
    return EXIT.usage;
  }
  const { connectMcpServers } = await import('../agent/mcp/mcp-servers.js');
  const toolbox = await connectMcpServers(config.mcpServers);
  const status = new Map(toolbox.status().map((s) => [s.server, s]));
  const rows = Object.entries(config.mcpServers).map(([name, server]) => {
    const s = status.get(name);
    return {
      server: name,
      transport: 'command' in server ? `stdio: ${[server.command, ...server.args].join(' ')}` : `http: ${server.url}`,
      approval: server.approval,
      status: server.approval === 'deny' ? 'not started (approval deny)' : s?.running ? 'running' : `failed: ${s?.error ?? 'did not start'}`,
      tools: s?.tools ?? [],
    };
  });
  await toolbox.close();
  if (json) {
    process.stdout.write(`${JSON.stringify({ servers: rows, problems: toolbox.problems })}\n`);
  } else if (!rows.length) {
    process.stdout.write('No MCP servers in config.json (mcpServers); see docs/CONFIG.md.\n');
  } else {
    for (const row of rows) {
      process.stdout.write(`${visibleText(row.server)}  [${row.approval}]  ${visibleText(row.status)}\n    ${visibleText(row.transport)}\n`);
      process.stdout.write(row.tools.length ? `    tools: ${row.tools.map((t) => visibleText(mcpToolName(row.server, t) ?? t)).join(', ')}\n` : '    tools: none offered\n');
    }
    for (const problem of toolbox.problems) process.stderr.write(`deskpilot: ${visibleText(problem)}\n`);
  }
  return rows.some((r) => r.status.startsWith('failed')) ? EXIT.environment : EXIT.done;
}
