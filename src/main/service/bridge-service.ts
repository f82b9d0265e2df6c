import { Commands, type CommandName, type CommandOutput, type PushMessage } from '../../shared/bridge.js';
import type { Computer } from '../../os-control/types.js';
import { loadConfig } from '../config/index.js';
import { launcherFor, type RunHandle, type RunOptions, type Surface } from '../agent/index.js';
import { listSkills, type SkillRoots } from '../agent/skills/index.js';
import { errorText, issueText, withConfigErrors } from './bridge-errors.js';
import type { CommandHandlers } from './command-handlers.js';
import type { ImageRedactor, TrajectoryExporter } from './export-run.js';
import { FrameStream } from './frame-stream.js';
import { PushHub } from './push-hub.js';
import { Recording, type Recorder } from './recording.js';
import { RunSlot } from './run-slot.js';
import { runStartCommand } from './run-start.js';
import { readRunFile, sessionCommands } from './session-commands.js';
import { settingsCommands } from './settings-commands.js';
import { BridgeError, type ClientInfo, type RunHostingService, type SecretStore, type ServiceHost } from './types.js'

export interface BridgeServiceOptions {
  /** DESKPILOT_HOME. */
  home: string;
  /** The Computer agent runs see and act through (the desktop app wraps it to hide its windows on Linux). */
  computer: Computer;
  /**
   * The Computer the live view captures with (default: `computer`). The desktop app
   * passes the unwrapped one, so watching never hides its windows: only the agent's
   * own captures and actions do.
   */
  liveViewComputer?: Computer;
  /** The desktop shell's state and its part of a settings save; absent in `deskpilot serve`. */
  host?: ServiceHost;
  /** The OS keychain (desktop app); absent in `deskpilot serve`, where keys come from the environment only. */
  secrets?: SecretStore;
  env?: NodeJS.ProcessEnv;
  /** Starts runs; the agent's front door (launchRun) unless a test wants another. */
  startRun?: (options: RunOptions) => Promise<RunHandle>;
  /** Which surface a person starts runs from here (their `source` label): the desktop app (default), `deskpilot serve`, or the page of `deskpilot mcp` / `acp`. */
  surface?: Extract<Surface, 'app' | 'serve' | 'mcp' | 'acp'>;
  /** Writes a run's trajectory for `sessions.export` (export-run.ts); absent in the desktop app, which ships no OCR. */
  exportTrajectory?: TrajectoryExporter;
  /** Fills a screenshot's secret words for `sessions.export`'s `redact` (OCR + the secret detectors); absent in the desktop app, which ships no OCR. */
  redactImage?: ImageRedactor;
  /** Live frames per second while a client watches (default 3). */
  fps?: number;
  /** Where skills are looked for (the project folder is the working directory by default). */
  skillRoots?: SkillRoots;
  /**
   * `deskpilot serve --virtual-display`: this process runs on a private virtual desktop
   * (its DISPLAY), and so does every run it starts. Runs get that desktop's config
   * (config/virtual-desktop.ts) and a label saying where they ran; live frames say which
   * desktop they show, so nobody mistakes them for their own screen.
   */
  virtualDesktop?: { display: string; description: string };
  /** Records a person (`record.start`); recordDemonstration unless a test brings another. */
  record?: Recorder;
}

/**
 * Why a browser of `deskpilot serve` may not record: a recording reads every key typed
 * and every click on the host's desktop (passwords included) into a session file, and
 * the person at that desktop would not know a remote page had started it.
 */
export const RECORDING_REFUSED =
  'Recording is only available in the DeskPilot desktop app: it reads every key and click on this machine, which a browser may not start. On the machine itself, run: deskpilot record "<task>"';

/**
 * The one object behind both bridge transports: validates every command with the
 * bridge contract, runs one agent run at a time, and pushes events, streaming text,
 * run state to every subscriber, and live frames to the clients that watch. Its areas
 * live apart: the pushes (push-hub.ts), the active run (run-slot.ts), run.start
 * (run-start.ts), settings (settings-commands.ts), past runs (session-commands.ts).
 */
export function createBridgeService(options: BridgeServiceOptions): RunHostingService {
  const { home, computer, secrets, host, virtualDesktop } = options;
  const env = options.env ?? process.env;
  const hub = new PushHub();
  const push = hub.push.bind(hub);
  let closed = false;
  let displayId: string | undefined;

  const frames = new FrameStream({
    computer: options.liveViewComputer ?? computer,
    fps: options.fps ?? 3,
    displayId: () => displayId,
    ...(virtualDesktop ? { desktop: `virtual desktop ${virtualDesktop.description}` } : {}),
    // Frames cost bandwidth: only the clients that asked for them get them.
    onFrame: (frame) => push(frame, (client) => frames.isWatching(client.id)),
  });
  const recording = new Recording({
    home,
    computer,
    displayId: async () => (await withConfigErrors(() => loadConfig(home))).displayId,
    ...(host ? { ignore: (input) => host.ownsInput(input) } : {}),
    onChange: (state) => push({ kind: 'record_state', recording: state }, mayRecord),
    ...(options.record ? { record: options.record } : {}),
  });
  const slot = new RunSlot(push, () => recording.busy());

  host?.onKillHotkeyChange(() => {
    const state = host.killHotkey();
    if (state) push(state);
  });

  const handlers: CommandHandlers<CommandName> = {
    'run.start': runStartCommand({
      home,
      env,
      computer,
      secrets,
      virtualDesktop,
      startRun: options.startRun ?? launcherFor(options.surface ?? 'app'),
      slot,
      recordingBusy: () => recording.busy(),
      onDisplay: (id) => (displayId = id),
    }),
    ...runControlCommands(slot),
    'skills.list': async () => {
      const { skills, errors } = await listSkills(options.skillRoots);
      return { skills: skills.map(({ name, description, source }) => ({ name, description, source })), errors };
    },
    ...settingsCommands({ home, env, secrets, host, exportsTrajectory: options.exportTrajectory !== undefined, redacts: options.redactImage !== undefined }),
    ...sessionCommands({ home, host, activeRunId: () => slot.active?.handle.runId, exportTrajectory: options.exportTrajectory, redactImage: options.redactImage }),
    'screen.watch': async (input, client) => {
      frames.watch(client.id, input.on);
      return {};
    },
    ...recordCommands(recording, slot),
  };

  return {
    async hostRun(startHosted, policy, options = {}) {
      if (closed) throw new BridgeError('unavailable', 'the service is closed');
      if (slot.starting) throw new BridgeError('conflict', 'a run is starting; stop it first');
      slot.starting = true;
      try {
        return await slot.host(startHosted, policy, options.over);
      } finally {
        slot.starting = false;
      }
    },

    async call(name, input, client) {
      if (closed) throw new BridgeError('unavailable', 'the service is closed');
      return callCommand(handlers, name, input, client);
    },

    subscribe(client, listener) {
      const hotkey = host?.killHotkey();
      hub.add(client, listener, [slot.state(), ...(hotkey ? [hotkey] : []), recordingState(recording, client)]);
      return () => {
        if (!hub.remove(client, listener)) frames.watch(client.id, false);
      };
    },

    readRunFile: (runId, relativePath) => readRunFile(home, runId, relativePath),

    async close() {
      closed = true;
      frames.close();
      await recording.close();
      await slot.close();
      hub.clear();
    },
  };
}

/** Validates a command's input, runs its handler, and validates what it answers: a handler bug is an error here, not junk in a client. */
async function callCommand<N extends CommandName>(handlers: CommandHandlers<CommandName>, name: N, input: unknown, client: ClientInfo): Promise<CommandOutput<N>> {
  const command = Commands[name as CommandName] as (typeof Commands)[CommandName] | undefined;
  if (!command || !Object.hasOwn(Commands, name)) throw new BridgeError('invalid', `unknown command ${String(name)}`);
  const parsed = command.input.safeParse(input);
  if (!parsed.success) throw new BridgeError('invalid', `invalid input for ${name}: ${issueText(parsed.error.issues)}`);
  const handler = handlers[name] as (input: unknown, client: ClientInfo) => Promise<unknown>;
  let output: unknown;
  try {
    output = await handler(parsed.data, client);
  } catch (error) {
    if (error instanceof BridgeError) throw error;
    throw new BridgeError('internal', errorText(error));
  }
  // Results pass the contract too (as Playwright's dispatcher checks its results).
  const result = command.output.safeParse(output);
  if (!result.success) throw new BridgeError('internal', `the result of ${name} broke the bridge contract: ${issueText(result.error.issues)}`);
  return result.data as CommandOutput<N>;
}

/** Stop, pause, resume, and the answers a waiting run takes: each to the active run with that id. */
function runControlCommands(slot: RunSlot): CommandHandlers<'run.stop' | 'run.pause' | 'run.resume' | 'approval.answer' | 'approval.cancelCountdown' | 'question.answer'> {
  return {
    'run.stop': async (input) => {
      slot.find(input.runId).handle.stop('stopped by the person');
      return {};
    },
    'run.pause': async (input) => {
      slot.find(input.runId).handle.pause('paused by the person');
      return {};
    },
    'run.resume': async (input) => {
      slot.find(input.runId).handle.resume();
      return {};
    },
    'approval.answer': async (input, client) => {
      const run = slot.find(input.runId);
      const result = run.handle.answerApprovalWithReason
        ? run.handle.answerApprovalWithReason(input.proposalId, input.answer, client.id)
        : { accepted: run.handle.answerApproval(input.proposalId, input.answer, client.id) };
      if (result.accepted) return { accepted: true };
      return { accepted: false, reason: result.reason ?? 'not the waiting item, or answered already' };
    },
    'approval.cancelCountdown': async (input) => {
      const run = slot.find(input.runId);
      return { cancelled: run.handle.cancelCountdown?.(input.proposalId) ?? false };
    },
    'question.answer': async (input, client) => {
      const run = slot.find(input.runId);
      return { accepted: run.handle.answerQuestion(input.questionId, input.answer, client.id) };
    },
  };
}

/** A recording's state goes only to the clients that may record (the desktop app's windows). */
function mayRecord(client: ClientInfo): boolean {
  return client.kind === 'electron';
}

function recordingState(recording: Recording, client: ClientInfo): PushMessage {
  return { kind: 'record_state', recording: mayRecord(client) ? recording.now() : { state: 'unavailable', reason: RECORDING_REFUSED } };
}

function recordCommands(recording: Recording, slot: RunSlot): CommandHandlers<'record.start' | 'record.stop'> {
  return {
    'record.start': async (input, client) => {
      if (!mayRecord(client)) throw new BridgeError('unavailable', RECORDING_REFUSED);
      // A run acts on the same desktop: its actions would be recorded as the person's.
      if (slot.active || slot.starting) throw new BridgeError('conflict', 'a run is active; stop it before recording');
      return recording.start(input.taskName);
    },
    'record.stop': async (_input, client) => {
      if (!mayRecord(client)) throw new BridgeError('unavailable', RECORDING_REFUSED);
      return recording.stop();
    },
  };
}
