import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Commands, ExportFormatSchema, PushMessageSchema, type CommandName, type CommandOutput, type PushMessage, type SettingsView } from '../../shared/bridge.js';
import type { Config } from '../../shared/config.js';
import { BASE_URL_ENVS, DEFAULT_KEY_ENVS } from '../../shared/providers.js';
import type { PolicyMode } from '../../shared/approvals.js';
import type { RunEvent, RunState } from '../../shared/events.js';
import type { Computer } from '../../os-control/types.js';
import { ConfigError, configOnVirtualDesktop, loadConfig, saveConfig, VIRTUAL_DISPLAY_LABEL } from '../config/index.js';
import { deleteSession, listSessions, openSession, runDir } from '../sessions/history.js';
import { mediaTypeOf, readFileInRun, resolveInRun } from '../sessions/files.js';
import { exportForBridge, type ImageRedactor, type TrajectoryExporter } from './export-run.js';
import { openEvalReport } from './eval-report.js';
import { apiKeyEnvName, resolveApiKey } from '../agent/providers/index.js';
import { pingProvider } from '../agent/providers/ping.js';
import { decideKeyDestination, launcherFor, resolveRunChoices, type RunHandle, type RunOptions, type Surface } from '../agent/index.js';
import { mcpToolboxFor } from '../agent/mcp/mcp-servers.js';
import { compileUserRules, UserRuleError } from '../agent/supervision/index.js';
import { listSkills, type SkillRoots } from '../agent/skills/index.js';
import { FrameStream } from './frame-stream.js';
import { Recording, type Recorder } from './recording.js';
import { BridgeError, type ClientInfo, type RunHostingService, type SecretStore, type ServiceHost } from './types.js';
import { own } from '../../shared/own.js';
import { checkWorkspace, defaultAppWorkspace, probeSandbox, resolveSandbox, SandboxInputError, type SandboxPolicy } from '../sandbox/index.js';

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

/** The first contract issue of a message, for an error a person can act on. */
function issueText(issues: readonly { path: PropertyKey[]; message: string }[]): string {
  const issue = issues[0];
  if (!issue) return 'invalid';
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return `${issue.path.map(String).join('.') || '(message)'}: ${issue.message}${more}`;
}

/** The key variables the settings screen always shows, besides those profiles name. */

interface ActiveRun {
  handle: RunHandle;
  policy: PolicyMode;
  state: RunState;
  reason: string;
  /** run_ended was seen (or `done` settled): never made active again. */
  ended: boolean;
}

type Listener = (message: PushMessage) => void;

/**
 * The one object behind both bridge transports: validates every command with the
 * bridge contract, runs one agent run at a time, and pushes events, streaming text,
 * run state to every subscriber, and live frames to the clients that watch.
 */
export function createBridgeService(options: BridgeServiceOptions): RunHostingService {
  const { home, computer, secrets, skillRoots, host, virtualDesktop } = options;
  const env = options.env ?? process.env;
  const start = options.startRun ?? launcherFor(options.surface ?? 'app');
  const listeners = new Map<Listener, ClientInfo>();
  let active: ActiveRun | undefined;
  let starting = false;
  let closed = false;
  let displayId: string | undefined;

  /** Every push passes the contract here, once, whatever transport carries it. */
  const valid = (message: PushMessage): PushMessage | null => {
    const parsed = PushMessageSchema.safeParse(message);
    if (parsed.success) return parsed.data;
    // A bug in main, not a client's fault: never delivered, always reported.
    console.error(`deskpilot: push ${message.kind} broke the bridge contract and was not sent: ${issueText(parsed.error.issues)}`);
    return null;
  };
  const push = (raw: PushMessage, to: (client: ClientInfo) => boolean = () => true) => {
    const message = valid(raw);
    if (!message) return;
    for (const [listener, client] of listeners) {
      if (!to(client)) continue;
      try {
        listener(message);
      } catch {
        // One broken client must not starve the others.
      }
    }
  };
  const runState = (): PushMessage => ({
    kind: 'run_state',
    runId: active?.handle.runId ?? null,
    state: active?.state ?? null,
    reason: active?.reason ?? '',
    ...(active ? { policy: active.policy } : {}),
  });

  const frames = new FrameStream({
    computer: options.liveViewComputer ?? computer,
    fps: options.fps ?? 3,
    displayId: () => displayId,
    ...(virtualDesktop ? { desktop: `virtual desktop ${virtualDesktop.description}` } : {}),
    // Frames cost bandwidth: only the clients that asked for them get them.
    onFrame: (frame) => push(frame, (client) => frames.isWatching(client.id)),
  });

  // A recording's state goes only to the clients that may record (the desktop app's windows).
  const mayRecord = (client: ClientInfo) => client.kind === 'electron';
  const recording = new Recording({
    home,
    computer,
    displayId: async () => (await withConfigErrors(() => loadConfig(home))).displayId,
    ...(host ? { ignore: (input) => host.ownsInput(input) } : {}),
    onChange: (state) => push({ kind: 'record_state', recording: state }, mayRecord),
    ...(options.record ? { record: options.record } : {}),
  });
  const recordingState = (client: ClientInfo): PushMessage => ({ kind: 'record_state', recording: mayRecord(client) ? recording.now() : { state: 'unavailable', reason: RECORDING_REFUSED } });

  host?.onKillHotkeyChange(() => {
    const state = host.killHotkey();
    if (state) push(state);
  });

  const activeRun = (runId: string): ActiveRun => {
    if (!active || active.handle.runId !== runId) throw new BridgeError('not_found', `no active run ${runId}`);
    return active;
  };

  const keyNames = (config: Config) => {
    const names = new Set(DEFAULT_KEY_ENVS);
    for (const profile of Object.values(config.profiles)) if (profile.apiKeyEnv) names.add(profile.apiKeyEnv);
    return [...names];
  };

  /** Key names follow the desktop the agent acts on: this process's OS (the BSDs name keys as Linux does). */
  const desktopPlatform = (p: NodeJS.Platform): NonNullable<SettingsView['platform']> => (p === 'darwin' || p === 'win32' ? p : 'linux');
  const settingsView = async (config: Config): Promise<SettingsView> => {
    const keys: SettingsView['keys'] = {};
    for (const name of keyNames(config)) {
      keys[name] = { stored: secrets ? await secrets.has(name) : false, fromEnv: Boolean(env[name]?.trim()) };
    }
    // The same lookup run.start makes, so "Start" is enabled exactly when a run could get a key.
    const profileKeys: NonNullable<SettingsView['profileKeys']> = {};
    for (const [name, profile] of Object.entries(config.profiles)) {
      const keyEnv = apiKeyEnvName(profile);
      const stored = keyEnv ? (own(keys, keyEnv)?.stored ?? false) : false;
      profileKeys[name] = { ...(keyEnv ? { keyEnv } : {}), ready: stored || Boolean(resolveApiKey(profile, env).apiKey?.trim()) };
    }
    // A format the service would refuse is not offered: the app has no trajectory exporter.
    const exports = ExportFormatSchema.options.filter((f) => f !== 'trajectory' || options.exportTrajectory !== undefined);
    return { config, keys, profileKeys, platform: desktopPlatform(process.platform), exports, redacts: options.redactImage !== undefined };
  };

  const withConfigErrors = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      if (error instanceof ConfigError) throw new BridgeError('invalid', error.message);
      throw error;
    }
  };

  /**
   * Makes a run the active one: its events, streaming text and state go to every
   * client, its approvals are answered through `approval.answer`. `start` receives the
   * hooks to pass to startRun. `over`: the run is hosted above that active run until it
   * ends, then that one is active again (a `run_task` inside an MCP session, which waits
   * meanwhile); otherwise another active run is a conflict.
   */
  const hostRun = async (start: (hooks: Pick<RunOptions, 'onEvent' | 'onDelta'>) => Promise<RunHandle>, policy: PolicyMode, over?: string): Promise<RunHandle> => {
    const below = over !== undefined ? activeRun(over) : undefined;
    if (!below && active) throw new BridgeError('conflict', 'a run is already active; stop it first');
    if (recording.busy()) throw new BridgeError('conflict', 'a recording is running; stop it first');
    // Filled once startRun returns; events before that only go to the log and subscribers.
    const run: { current?: ActiveRun } = {};
    const leave = (current: ActiveRun) => {
      if (active !== current) return;
      active = below && !below.ended ? below : undefined;
      push(runState());
    };
    const onEvent = (event: RunEvent) => {
      const current = run.current;
      if (event.type === 'state' && current) {
        current.state = event.state;
        current.reason = event.reason;
      }
      push({ kind: 'event', event });
      // A client that saw run_ended may start the next run at once, before the old
      // run's log has finished closing: the run is no longer active from here.
      if (event.type === 'run_ended' && current) {
        current.ended = true;
        if (active === current) active = below && !below.ended ? below : undefined;
      }
      if ((event.type === 'state' || event.type === 'run_ended') && current) push(runState());
    };
    let handle: RunHandle;
    try {
      handle = await start({
        onEvent,
        onDelta: (text, textKind) => {
          if (run.current) push({ kind: 'delta', runId: run.current.handle.runId, text, textKind });
        },
      });
    } catch (error) {
      if (error instanceof BridgeError) throw error;
      throw new BridgeError('invalid', error instanceof Error ? error.message : String(error));
    }
    const current: ActiveRun = { handle, policy, state: 'running', reason: '', ended: false };
    run.current = current;
    active = current;
    push(runState());
    void handle.done
      .catch(() => undefined)
      .finally(() => {
        current.ended = true;
        leave(current);
      });
    return handle;
  };

  const handlers: { [N in CommandName]: (input: ReturnType<(typeof Commands)[N]['input']['parse']>, client: ClientInfo) => Promise<CommandOutput<N>> } = {
    'run.start': async (input) => {
      if (active || starting) throw new BridgeError('conflict', 'a run is already active; stop it first');
      if (recording.busy()) throw new BridgeError('conflict', 'a recording is running; stop it first');
      starting = true;
      try {
        const loaded = await withConfigErrors(() => loadConfig(home));
        const config = virtualDesktop ? configOnVirtualDesktop(loaded) : loaded;
        const resolved = await withConfigErrors(async () =>
          resolveRunChoices(
            config,
            {
              profile: input.profile,
              provider: input.provider,
              model: input.model,
              baseUrl: input.baseUrl,
              policy: input.policy,
              limits: input.limits,
            },
            env,
          ),
        );
        if (input.baseUrl !== undefined) {
          // A browser client may pick a profile, never where its key goes: only the
          // profile's own base URL (config.json or the provider's environment variable).
          let own: string | undefined;
          try {
            own = resolveRunChoices(config, { profile: input.profile, provider: input.provider, model: input.model }, env).profile.baseUrl;
          } catch {
            own = undefined; // an openai-compatible profile without a URL of its own: nothing is "its own"
          }
          const decision = decideKeyDestination(input.baseUrl, { trusted: [own], allowLoopback: false });
          if (!decision.ok) throw new BridgeError('invalid', `refused: ${decision.reason}`);
        }
        displayId = config.displayId;
        // The keychain first, then the environment (local servers may need none).
        const keyEnv = apiKeyEnvName(resolved.profile);
        const stored = keyEnv && secrets ? await secrets.get(keyEnv) : undefined;
        const apiKey = stored || resolveApiKey(resolved.profile, env).apiKey;
        if (!apiKey) throw new BridgeError('invalid', `no API key: store one in settings or set ${keyEnv ?? 'the key variable'}`);
        const sandbox = await appSandbox(config);
        // The MCP servers start once hostRun has agreed (a refused start starts none); startRun owns them then.
        const handle = await hostRun(
          async (hooks) =>
            start({
              ...(await mcpToolboxFor(config).then((mcp) => (mcp ? { mcp } : {}))),
              task: input.task,
              profile: resolved.profile,
              ...(apiKey ? { apiKey } : {}),
              policy: resolved.policy,
              limits: resolved.limits,
              config,
              computer,
              home,
              ...(input.skills?.length ? { skills: input.skills } : {}),
              ...(virtualDesktop ? { labels: { [VIRTUAL_DISPLAY_LABEL]: virtualDesktop.display } } : {}),
              // The project the app or `deskpilot serve` was started in.
              agentsMd: { cwd: process.cwd() },
              sandbox,
              ...hooks,
            }),
          resolved.policy,
        );
        return { runId: handle.runId };
      } finally {
        starting = false;
      }
    },
    'run.stop': async (input) => {
      activeRun(input.runId).handle.stop('stopped by the person');
      return {};
    },
    'run.pause': async (input) => {
      activeRun(input.runId).handle.pause('paused by the person');
      return {};
    },
    'run.resume': async (input) => {
      activeRun(input.runId).handle.resume();
      return {};
    },
    'approval.answer': async (input, client) => {
      const run = activeRun(input.runId);
      const result = run.handle.answerApprovalWithReason
        ? run.handle.answerApprovalWithReason(input.proposalId, input.answer, client.id)
        : { accepted: run.handle.answerApproval(input.proposalId, input.answer, client.id) };
      if (result.accepted) return { accepted: true };
      return { accepted: false, reason: result.reason ?? 'not the waiting item, or answered already' };
    },
    'approval.cancelCountdown': async (input) => {
      const run = activeRun(input.runId);
      return { cancelled: run.handle.cancelCountdown?.(input.proposalId) ?? false };
    },
    'question.answer': async (input, client) => {
      const run = activeRun(input.runId);
      return { accepted: run.handle.answerQuestion(input.questionId, input.answer, client.id) };
    },
    'skills.list': async () => {
      const { skills, errors } = await listSkills(skillRoots);
      return { skills: skills.map(({ name, description, source }) => ({ name, description, source })), errors };
    },
    'connection.test': async (input) => {
      const config = await withConfigErrors(() => loadConfig(home));
      // The profile by name, from the config only (resolveRunChoices takes no URL here).
      const resolved = await withConfigErrors(async () => resolveRunChoices(config, { profile: input.profile }, env));
      const keyEnv = apiKeyEnvName(resolved.profile);
      const stored = keyEnv && secrets ? await secrets.get(keyEnv) : undefined;
      const fromEnv = resolveApiKey(resolved.profile, env);
      const apiKey = stored || fromEnv.apiKey;
      if (!apiKey) return { ok: false, message: `no API key: ${secrets ? 'store one in Settings or ' : ''}set ${keyEnv ?? 'the key variable'} in the environment of deskpilot serve`, ms: 0 };
      return pingProvider(resolved.profile, { apiKey, ...(fromEnv.baseUrl ? { baseUrl: fromEnv.baseUrl } : {}), ...(keyEnv ? { keyEnv } : {}) });
    },
    'settings.get': async () => settingsView(await withConfigErrors(() => loadConfig(home))),
    // All or nothing: every check runs before anything is written, and a failed write
    // puts back what was already changed (keys, the stop hotkey).
    'settings.save': async (input, client) => {
      if (client.kind === 'ws') {
        // From a browser, settings may not re-route a key: a profile whose provider,
        // base URL or key variable changes may only point at its old URL, a base-URL
        // environment variable, the provider's default, or loopback.
        const before = await withConfigErrors(() => loadConfig(home));
        for (const [name, p] of Object.entries(input.config.profiles)) {
          const old = own(before.profiles, name);
          if (old && old.provider === p.provider && old.baseUrl === p.baseUrl && old.apiKeyEnv === p.apiKeyEnv) continue;
          const decision = decideKeyDestination(p.baseUrl, { trusted: [old?.baseUrl, ...BASE_URL_ENVS.map((name) => env[name])], allowLoopback: true });
          if (!decision.ok) throw new BridgeError('invalid', `profile ${name}: refused from a browser: ${decision.reason}. Edit config.json on this machine to use it.`);
        }
      }
      const keys = Object.entries(input.apiKeys ?? {});
      for (const [name] of keys) {
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new BridgeError('invalid', `not a key variable name: ${name}`);
      }
      if (keys.length && !secrets) throw new BridgeError('unavailable', 'keys cannot be stored here; set them as environment variables');
      const storeProblem = keys.some(([, value]) => value !== '') ? secrets?.storeProblem() : null;
      if (storeProblem) throw new BridgeError('unavailable', `keys cannot be stored: ${storeProblem}; set them as environment variables instead. Nothing was saved.`);
      // A rule the gate cannot compile (a pattern, a chord) would refuse every run at its
      // start: refused here instead, naming the rule's field ("policy.rules[0].keys[1]: …"),
      // which Settings shows at that field. The gate's own compiler: one reading of a rule.
      try {
        compileUserRules(input.config.policy.rules);
      } catch (error) {
        if (error instanceof UserRuleError) throw new BridgeError('invalid', error.message);
        throw error;
      }
      // A workspace every run would refuse at its start (/, the home folder, a missing folder …) is refused here, at its field.
      if (input.config.sandbox?.workspace !== undefined) checkAppWorkspace(input.config.sandbox.workspace);
      const undoHost = host ? await host.prepareSettings(input.config) : () => {};
      const previous: [string, string | undefined][] = [];
      try {
        for (const [name, value] of keys) {
          previous.push([name, await secrets!.get(name)]);
          if (value === '') await secrets!.delete(name);
          else await secrets!.set(name, value);
        }
        return settingsView(await withConfigErrors(() => saveConfig(input.config, home)));
      } catch (error) {
        undoHost();
        for (const [name, value] of previous.reverse()) {
          if (value === undefined) await secrets!.delete(name);
          else await secrets!.set(name, value);
        }
        throw error;
      }
    },
    'sessions.list': async (input) => ({
      sessions: (await listSessions(home, input.query ? { query: input.query } : {})).map(({ summaryText: _summary, ...s }) => s),
    }),
    'sessions.open': async (input) => {
      try {
        return { events: (await openSession(home, input.runId)).events };
      } catch (error) {
        throw new BridgeError('not_found', error instanceof Error ? error.message : String(error));
      }
    },
    'sessions.delete': async (input) => {
      if (active?.handle.runId === input.runId) throw new BridgeError('conflict', 'this run is active; stop it first');
      try {
        await deleteSession(home, input.runId);
      } catch (error) {
        throw new BridgeError('not_found', error instanceof Error ? error.message : String(error));
      }
      return {};
    },
    'sessions.export': async (input) => {
      try {
        return await exportForBridge(home, input, options.exportTrajectory, options.redactImage);
      } catch (error) {
        throw new BridgeError('not_found', error instanceof Error ? error.message : String(error));
      }
    },
    'eval.report': async (input) => openEvalReport(home, input.runId, host?.openPath?.bind(host)),
    'screen.watch': async (input, client) => {
      frames.watch(client.id, input.on);
      return {};
    },
    'record.start': async (input, client) => {
      if (!mayRecord(client)) throw new BridgeError('unavailable', RECORDING_REFUSED);
      // A run acts on the same desktop: its actions would be recorded as the person's.
      if (active || starting) throw new BridgeError('conflict', 'a run is active; stop it before recording');
      return recording.start(input.taskName);
    },
    'record.stop': async (_input, client) => {
      if (!mayRecord(client)) throw new BridgeError('unavailable', RECORDING_REFUSED);
      return recording.stop();
    },
  };

  return {
    async hostRun(startHosted, policy, options = {}) {
      if (closed) throw new BridgeError('unavailable', 'the service is closed');
      if (starting) throw new BridgeError('conflict', 'a run is starting; stop it first');
      starting = true;
      try {
        return await hostRun(startHosted, policy, options.over);
      } finally {
        starting = false;
      }
    },

    async call(name, input, client) {
      if (closed) throw new BridgeError('unavailable', 'the service is closed');
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
        throw new BridgeError('internal', error instanceof Error ? error.message : String(error));
      }
      // Results pass the contract too (as Playwright's dispatcher checks its results):
      // a handler bug surfaces here as an error, not as junk in a client.
      const result = command.output.safeParse(output);
      if (!result.success) throw new BridgeError('internal', `the result of ${name} broke the bridge contract: ${issueText(result.error.issues)}`);
      return result.data as CommandOutput<typeof name>;
    },

    subscribe(client, listener) {
      listeners.set(listener, client);
      const hotkey = host?.killHotkey();
      const greeting = [valid(runState()), hotkey ? valid(hotkey) : null, valid(recordingState(client))];
      for (const message of greeting) {
        try {
          if (message) listener(message);
        } catch {
          // ignore a listener that throws at once
        }
      }
      return () => {
        listeners.delete(listener);
        if (![...listeners.values()].some((c) => c.id === client.id)) frames.watch(client.id, false);
      };
    },

    async readRunFile(runId, relativePath) {
      let dir: string;
      try {
        dir = runDir(home, runId);
        resolveInRun(dir, relativePath);
      } catch (error) {
        throw new BridgeError('invalid', error instanceof Error ? error.message : String(error));
      }
      try {
        return { data: await readFileInRun(dir, relativePath), mediaType: mediaTypeOf(relativePath) };
      } catch {
        throw new BridgeError('not_found', `no file ${relativePath} in run ${runId}`);
      }
    },

    async close() {
      closed = true;
      frames.close();
      await recording.close();
      const running = active;
      if (running) {
        running.handle.stop('the app is closing');
        await running.handle.done.catch(() => undefined);
      }
      listeners.clear();
    },
  };
}

/**
 * Settings' workspace for the app and serve (issue 30 item 2), checked as a run would
 * check it (sandbox/workspace.ts checkWorkspace) and said as "sandbox.workspace: …" so the
 * page shows it at the field. A full path only: the service's own folder is no one's
 * idea of "here", and `~` is not expanded.
 */
function checkAppWorkspace(given: string): void {
  if (!path.isAbsolute(given)) throw new BridgeError('invalid', `sandbox.workspace: must be a full path (for example ${defaultAppWorkspace(os.homedir())})`);
  try {
    checkWorkspace(given);
  } catch (error) {
    if (error instanceof SandboxInputError) throw new BridgeError('invalid', `sandbox.workspace: ${error.message}`);
    throw error;
  }
}

/**
 * The sandbox of a run the app or `deskpilot serve` starts (issue 30): config.json
 * `sandbox`, in `sandbox.workspace` or else ~/DeskPilot (made on first use, never / or the
 * home folder itself). A workspace that cannot be used, or a mode asked for where no
 * sandbox works, refuses the start with the reason.
 */
async function appSandbox(config: Config): Promise<SandboxPolicy> {
  // The machine's own environment (PATH for bwrap, HOME): the service's `env` holds keys only.
  const fallback = defaultAppWorkspace(os.homedir());
  if (!config.sandbox?.workspace) fs.mkdirSync(fallback, { recursive: true });
  const resolved = resolveSandbox({ defaultWorkspace: fallback, ...(config.sandbox ? { config: config.sandbox } : {}) }, await probeSandbox());
  if (!resolved.ok) throw new BridgeError('invalid', resolved.message);
  return resolved.policy;
}
