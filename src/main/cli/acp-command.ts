import type { Command } from 'commander';
import { Readable, Writable } from 'node:stream';
import { deskpilotHome } from '../paths.js';
import { addPolicyOptions, addProviderOptions, policyFromFlags, type ChoiceFlags } from './run-flags.js';

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
  addPolicyOptions(acpCommand)
    .option('--no-agents-md', "do not read AGENTS.md (the session folder's repository, ~/.deskpilot) into the system prompt")
    .action(async (flags: AcpFlags) => {
      const { takeStdoutForProtocol } = await import('../mcp-server/stdout-guard.js');
      const output = takeStdoutForProtocol();
      const [acp, { createAcpAgent }, { createComputer }, { createBridgeService }] = await Promise.all([
        import('@agentclientprotocol/sdk'),
        import('../acp/acp-agent.js'),
        import('../../os-control/index.js'),
        import('../service/index.js'),
      ]);
      const home = deskpilotHome();
      const computer = createComputer();
      const service = createBridgeService({ home, computer, surface: 'acp' });
      const agent = createAcpAgent({
        service,
        computer,
        home,
        policy: policyFromFlags(flags),
        choices: { profile: flags.profile, provider: flags.provider, model: flags.model, baseUrl: flags.baseUrl, apiKeyEnv: flags.apiKeyEnv },
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
