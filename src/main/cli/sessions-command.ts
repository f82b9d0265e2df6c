import path from 'node:path';
import { Option, type Command } from 'commander';
import { describeAction } from '../../shared/actions.js';
import type { RunEvent } from '../../shared/events.js';
import { deskpilotHome } from '../paths.js';
import { CLI_EXPORT_FORMATS, REPLAY_FORMAT_DEPRECATED, type CliExportFormat, type ExportFormat } from '../sessions/export/formats.js';
import { deleteSession, listSessions, openSession, runDir, sessionSummary, type ListedSession } from '../sessions/history.js';
import { RunLogReadError } from '../sessions/reader.js';
import { addGroundingOption, addHarnessOption, addPolicyOptions, addProviderOptions, addSandboxOptions, type ChoiceFlags, type SandboxFlags } from './run-flags.js';
import { resolveRunRef, RunRefError } from './run-ref.js';
import { shownOneLine } from './terminal-text.js';
import { readQaLabels } from '../../shared/qa-labels.js';
import { own } from '../../shared/own.js';
import { formatCost } from '../../shared/usage-text.js';

/** Exit codes of `deskpilot sessions …`: 0 ok, 1 the operation failed, 2 bad input (unknown run, bad flag). */
export const SESSIONS_EXIT = { ok: 0, failed: 1, usage: 2 } as const;

export interface SessionsCommandOptions {
  /** DESKPILOT_HOME; read when a command runs (tests set it per case). */
  home?: () => string;
  out?: (text: string) => void;
  err?: (text: string) => void;
  /**
   * Continues a paused or interrupted run in its folder (the runner's side of resume:
   * startRun({ resumeRunId }) in the terminal); returns the process exit code.
   */
  resume?: (runId: string, context: { home: string; flags: ChoiceFlags & SandboxFlags }) => Promise<number>;
  /** Called with the exit code when a subcommand finishes (default: sets process.exitCode). */
  setExitCode?: (code: number) => void;
}

const RUN_REF = 'run id, a unique prefix of one, or "last"';

/** The export format an output file's name asks for (`report.html` → html), if it names one. */
export function formatFromFileName(file: string): ExportFormat | undefined {
  const ext = path.extname(file).toLowerCase().slice(1);
  const byExt: Record<string, ExportFormat> = { md: 'md', markdown: 'md', html: 'html', htm: 'html', json: 'json', webp: 'webp', gif: 'gif' };
  return own(byExt, ext);
}

function pad(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width);
}

/** One run of `sessions list`: its cost rounded as the app, serve and the exports round it (usage-text's formatCost: $0.0125, never $0.01). */
export function listLine(s: ListedSession): string {
  const when = new Date(s.startedAt).toISOString().slice(0, 16).replace('T', ' ');
  // A QA case shows its verdict after DeskPilot's checks (sessions/outcome.ts), not "done".
  return `${pad(s.runId, 22)} ${pad(s.verdict ?? s.status, 11)} ${when}  ${String(s.steps).padStart(4)} steps  ${formatCost(s.costUsd).padStart(8)}  ${shownOneLine(listTitle(s))}`;
}

/** What a run is, in a list row: a QA case by its plan and case name (its task is the long QA prompt), else the task. */
function listTitle(s: ListedSession): string {
  const { qaCase, qaPlan } = readQaLabels(s.labels);
  if (qaCase) return `QA ${qaPlan ? `${qaPlan} › ` : ''}${qaCase}`;
  return s.task.replace(/\s+/g, ' ');
}

/** One line per event, for `sessions show`. */
function eventLine(e: RunEvent): string | undefined {
  switch (e.type) {
    case 'run_started':
      return `started: ${e.task} (${e.provider} ${e.model}, policy ${e.policy})${e.resumedFromSeq !== undefined ? ' [resumed]' : ''}`;
    case 'observation':
      return `step ${e.step + 1}: screenshot ${e.image}`;
    case 'model_text':
      return e.text.trim() ? `  ${e.kind === 'thinking' ? 'thinking' : 'model'}: ${e.text.trim().replace(/\s+/g, ' ')}` : undefined;
    case 'action_proposed':
      return `  proposed: ${describeAction(e.action)}`;
    case 'action_invalid':
      return `  invalid: ${e.error}`;
    case 'approval_requested':
      return `  gate: ${e.decision.verdict} (${e.decision.rule}) ${e.decision.reason}`;
    case 'approval_answered':
      return `  answered: ${e.answer.decision} by ${e.by.kind}${e.by.detail ? ` ${e.by.detail}` : ''}`;
    case 'action_denied':
      return `  denied: ${e.decision.reason}`;
    case 'action_executed':
      return `  ${e.ok ? 'executed' : 'failed'}: ${describeAction(e.action)}${e.error ? ` — ${e.error}` : ''}`;
    case 'question_asked':
      return `  question: ${e.question}`;
    case 'question_answered':
      return `  answer: ${e.answer}`;
    case 'usage':
      return `  usage: ${e.stepUsage.inputTokens} in / ${e.stepUsage.outputTokens} out, total ${formatCost(e.total.costUsd)}`;
    case 'state':
      return `  state: ${e.state}${e.reason ? ` — ${e.reason}` : ''}`;
    case 'error':
      return `  error: ${e.message}`;
    case 'run_ended':
      return `ended: ${e.status} after ${e.steps} steps, ${formatCost(e.total.costUsd)}${e.summary ? ` — ${e.summary}` : ''}`;
  }
}

/** --redact's filter: each screenshot's flagged words filled, and said per file on stderr. */
async function redactor(err: (text: string) => void): Promise<(image: Buffer, name: string) => Promise<Buffer>> {
  const { redactSecretWords } = await import('../agent/ocr-redact.js');
  return async (image, name) => {
    const result = await redactSecretWords(image);
    if (result.words > 0) err(`redacted ${result.words} word${result.words === 1 ? '' : 's'} in ${name}`);
    return result.image;
  };
}

/** `deskpilot sessions list|show|export|resume|rm` (registered by src/main/cli.ts). */
// Over 120 lines because it declares the five `sessions` subcommands on one commander
// object with their flags and help, sharing one guard and one output; each action's work
// lives in sessions/ and cli/ modules of its own.
export function registerSessionsCommand(program: Command, options: SessionsCommandOptions = {}): Command {
  const home = options.home ?? (() => deskpilotHome());
  // `deskpilot sessions show ID | head` closing the pipe early is handled once, in cli.ts main().
  const out = options.out ?? ((t: string) => void process.stdout.write(`${t}\n`));
  const err = options.err ?? ((t: string) => void process.stderr.write(`${t}\n`));
  const setExit = options.setExitCode ?? ((code: number) => void (process.exitCode = code));

  /** Runs a subcommand body; known failures become a clear message and an exit code, not a stack. */
  const guard = async (body: () => Promise<number>) => {
    try {
      setExit(await body());
    } catch (e) {
      const error = e as NodeJS.ErrnoException;
      if (error instanceof RunRefError) {
        err(`deskpilot: ${error.message}`);
        setExit(SESSIONS_EXIT.usage);
      } else if (error instanceof RunLogReadError && error.code === 'missing') {
        err(`deskpilot: ${error.message}`);
        setExit(SESSIONS_EXIT.usage);
      } else if (error.code === 'ENOENT') {
        err(`deskpilot: no such run (${error.path ?? 'unknown path'})`);
        setExit(SESSIONS_EXIT.usage);
      } else {
        err(`deskpilot: ${error.message}`);
        setExit(SESSIONS_EXIT.failed);
      }
    }
  };

  const sessions = program.command('sessions').description('past runs: list, show, export, resume, delete');

  sessions
    .command('list')
    .description('list runs, newest first')
    .option('--json', 'print the summaries as JSON')
    .option('--search <query>', 'filter: words in the task, status:done, date:2026-11-30, since:/until:, label:key=value, app:name')
    .option('--status <status>', 'only runs with this status (done, failed, stopped, error, limit, running, paused, interrupted) or QA verdict (passed, failed, blocked)')
    .action((flags: { json?: boolean; search?: string; status?: string }) =>
      guard(async () => {
        const list = await listSessions(home(), { query: flags.search, status: flags.status, onWarning: (w) => err(`warning: ${w}`) });
        if (flags.json) out(JSON.stringify(list.map(({ summaryText: _t, ...s }) => s), null, 2));
        else if (list.length === 0) out('no runs');
        else for (const s of list) out(listLine(s));
        return SESSIONS_EXIT.ok;
      }),
    );

  sessions
    .command('show')
    .description("print a run's summary and timeline")
    .argument('<id>', RUN_REF)
    .option('--json', 'print the events as JSON lines')
    .action((ref: string, flags: { json?: boolean }) =>
      guard(async () => {
        const id = await resolveRunRef(home(), ref);
        const { events, warnings } = await openSession(home(), id);
        for (const w of warnings) err(`warning: ${w}`);
        if (flags.json) {
          for (const e of events) out(JSON.stringify(e));
          return SESSIONS_EXIT.ok;
        }
        const s = await sessionSummary(home(), id);
        out(listLine(s));
        out(`folder: ${runDir(home(), id)}`);
        // Model text, commands and summaries are shown, never interpreted (a `\r` or ESC from a model stays visible).
        for (const e of events) {
          const line = eventLine(e);
          if (line !== undefined) out(shownOneLine(line));
        }
        return SESSIONS_EXIT.ok;
      }),
    );

  sessions
    .command('export')
    .description('export a run as Markdown, a self-contained HTML report, JSON, an animation, or a replayable trajectory')
    .argument('<id>', RUN_REF)
    .addOption(new Option('--format <format>', 'output format (default: from the --out file name); trajectory writes a folder').choices([...CLI_EXPORT_FORMATS]))
    .option('--out <file>', 'output file, or folder for a trajectory (default: <id>.<format> in the current folder)')
    .option('--redact', 'also fill the words in each screenshot that look like a secret (OCR + the secret detectors: keys, tokens, "the password is …"); password fields are filled in every export')
    .action((ref: string, flags: { format?: CliExportFormat; out?: string; redact?: boolean }) =>
      guard(async () => {
        let format = flags.format ?? (flags.out ? formatFromFileName(flags.out) : undefined);
        if (!format) {
          err(`deskpilot: give --format (${CLI_EXPORT_FORMATS.filter((f) => f !== 'replay').join(', ')}) or an --out file ending in one of them\nsee deskpilot sessions export --help`);
          return SESSIONS_EXIT.usage;
        }
        if (format === 'replay') {
          err(`warning: ${REPLAY_FORMAT_DEPRECATED}`);
          format = 'animation';
        }
        const id = await resolveRunRef(home(), ref);
        if (flags.redact && format === 'json') {
          err('deskpilot: --redact fills words in screenshots; a json export has none (its text was scrubbed when logged)');
          return SESSIONS_EXIT.usage;
        }
        // OCR (a trajectory reads the text under each point, --redact every screenshot) loads only for these exports.
        const ocr = format === 'trajectory' || flags.redact ? await import('../../os-control/ocr/index.js') : undefined;
        const redactImage = flags.redact ? await redactor(err) : undefined;
        try {
          if (format === 'trajectory') {
            const { exportTrajectory } = await import('../agent/replay/index.js');
            const result = await exportTrajectory(runDir(home(), id), path.resolve(flags.out ?? `${id}.trajectory`), { ...(redactImage ? { redactImage } : {}) });
            out(result.file);
            return SESSIONS_EXIT.ok;
          }
          const file = path.resolve(flags.out ?? `${id}.${format === 'animation' ? 'webp' : format}`);
          // The renderers (sharp for animations) load only for an export.
          const { exportRun } = await import('../sessions/export/index.js');
          const result = await exportRun(runDir(home(), id), format, file, { ...(redactImage ? { redactImage } : {}) });
          for (const w of result.warnings) err(`warning: ${w}`);
          out(file);
          return SESSIONS_EXIT.ok;
        } finally {
          // The OCR worker would keep the process alive after the export.
          await ocr?.terminateOcr();
        }
      }),
    );

  const resume = sessions
    .command('resume')
    .description('continue a paused or interrupted run in its folder (with the provider, model, base URL and sandbox it used, unless flags say otherwise)')
    .argument('<id>', RUN_REF);
  addProviderOptions(resume);
  addGroundingOption(resume);
  addHarnessOption(resume);
  addSandboxOptions(resume);
  addPolicyOptions(resume).action((ref: string, flags: ChoiceFlags & SandboxFlags) =>
      guard(async () => {
        const id = await resolveRunRef(home(), ref);
        const s = await sessionSummary(home(), id);
        if (s.status === 'running') {
          err(`deskpilot: run ${id} is still running in another process`);
          return SESSIONS_EXIT.usage;
        }
        if (!options.resume) {
          err('deskpilot: resume is not available in this build (the runner did not register it)');
          return SESSIONS_EXIT.failed;
        }
        return options.resume(id, { home: home(), flags });
      }),
    );

  sessions
    .command('rm')
    .description('delete a run and its screenshots')
    .argument('<id...>', `runs: ${RUN_REF}`)
    .action((refs: string[]) =>
      guard(async () => {
        // Every reference is resolved before anything is deleted: one typo deletes nothing.
        const ids: string[] = [];
        for (const ref of refs) ids.push(await resolveRunRef(home(), ref));
        for (const id of new Set(ids)) {
          await deleteSession(home(), id);
          out(`deleted ${id}`);
        }
        return SESSIONS_EXIT.ok;
      }),
    );

  return sessions;
}
