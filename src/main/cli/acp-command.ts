import type { Command } from 'commander';
import { Readable, Writable } from 'node:stream';
import { deskpilotHome } from '../paths.js';
import { addHarnessOption, addPolicyOptions, addProviderOptions, policyFromFlags, type ChoiceFlags } from './run-flags.js';
import { taskChoicesOf, taskChoicesProblem } from './task-choices.js';

interface AcpFlags extends ChoiceFlags {
  /** false with --no-agents-md. */
  agentsMd: boolean;
}

/**
 * `deskpilot acp`: DeskPilot as an Agent Client Protocol agent on stdio, for editors
 * (Zed …) to start desktop tasks. The editor's permission prompts answer the approval
 * queue; stdout is the protocol's alone.
 */
export function registerAcpCommand(program: Command): void {
  const acpCommand = program
    .command('acp')
    .description('be an Agent Client Protocol agent on stdio: an editor starts desktop tasks and answers their approvals');
  addProviderOptions(acpCommand);
  addHarnessOption(acpCommand);
  addPolicyOptions(acpCommand)
    .option('--no-agents-md', "do not read AGENTS.md (the session folder's repository, ~/.deskpilot) into the system prompt")
    .action(async (flags: AcpFlags) => {
      const { takeStdoutForProtocol } = await import('../mcp-server/stdout-guard.js');
      const output = takeStdoutForProtocol();
      const home = deskpilotHome();
      const choices = taskChoicesOf(flags);
      const problem = await taskChoicesProblem(home, choices, process.env);
      if (problem) {
        process.stderr.write(`deskpilot acp: ${problem}\n`);
        process.exit(2);
      }
      const [acp, { createAcpAgent }, { createComputer }, { createBridgeService }] = await Promise.all([
        import('@agentclientprotocol/sdk'),
        import('../acp/acp-agent.js'),
        import('../../os-control/index.js'),
        import('../service/index.js'),
      ]);
      const computer = createComputer();
      const service = createBridgeService({ home, computer, surface: 'acp' });
      const agent = createAcpAgent({
        service,
        computer,
        home,
        policy: policyFromFlags(flags),
        choices,
        env: process.env,
        agentsMd: flags.agentsMd,
      });
      const stream = acp.ndJsonStream(Writable.toWeb(output) as WritableStream<Uint8Array>, Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>);
      const connection = agent.connect(stream);
      process.stderr.write('deskpilot acp: an Agent Client Protocol agent on stdio.\n');
      const stop = () => void service.close().finally(() => process.exit(0));
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
      await connection.closed.catch(() => undefined);
      await service.close().catch(() => {});
      process.exit(0);
    });
}
