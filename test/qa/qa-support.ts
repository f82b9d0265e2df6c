import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { processStartTime } from '../../src/os-control/desktop-record.js';
import type { FakeRequest, FakeResult, FakeToolCall } from '../harness/fake-model/index.js';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The `deskpilot` command as users run it (it runs the TypeScript sources through tsx without a build). */
const BIN = path.join(REPO_ROOT, 'bin', 'deskpilot.js');

/** Runs `deskpilot <args>` (qa / skills) in a child process; resolves with its exit code and output. */
export function runQaCli(args: string[], env: NodeJS.ProcessEnv, cwd = REPO_ROOT): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

/** Claude's computer tool and DeskPilot's extra tools, as the fake model calls them. */
export const call = {
  type: (text: string): FakeToolCall => ({ name: 'computer', input: { action: 'type', text } }),
  click: (x: number, y: number): FakeToolCall => ({ name: 'computer', input: { action: 'left_click', coordinate: [x, y] } }),
  findText: (text: string): FakeToolCall => ({ name: 'find_text', input: { text } }),
  verdict: (verdict: 'pass' | 'fail' | 'blocked', reason: string, extra: Record<string, unknown> = {}): FakeToolCall => ({
    name: 'qa_verdict',
    input: { verdict, reason, evidence: ['latest'], ...extra },
  }),
};

/** The first user message of the conversation (the case's task), found in the raw body. */
export function caseOf(req: FakeRequest, names: readonly string[]): string | undefined {
  const body = JSON.stringify(req.body);
  return names.find((n) => body.includes(`Test case \\"${n}\\"`));
}

/** "at x=12, y=34" from a find_text result. */
export function pointFromFindText(text: string): [number, number] | undefined {
  const m = /at x=(\d+), y=(\d+)/.exec(text);
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

/**
 * A scripted QA model: for each case, a list of turns chosen by how many tool results
 * the conversation already has. Every request is answered from here (setFallback).
 */
export function qaModel(cases: Record<string, Array<(req: FakeRequest) => FakeResult>>, log: string[] = []): (req: FakeRequest) => FakeResult {
  return (req) => {
    const name = caseOf(req, Object.keys(cases));
    if (!name) return { text: 'I do not know this case.' };
    // Each assistant turn is answered by one user message with tool results.
    const turn = countAssistantTurns(req);
    log.push(`${name}#${turn}`);
    const turns = cases[name]!;
    const next = turns[Math.min(turn, turns.length - 1)]!;
    return next(req);
  };
}

function countAssistantTurns(req: FakeRequest): number {
  const messages = Array.isArray(req.body.messages) ? req.body.messages : [];
  return messages.filter((m) => typeof m === 'object' && m !== null && (m as { role?: string }).role === 'assistant').length;
}

/** A process named by pid and start time (/proc/<pid>/stat field 22): a reused pid is another process. */
export interface ProcessId {
  pid: number;
  command: string;
  start: string;
}

/** Every process below `root` now (ps's parent links; detached children keep their parent), with its start time. */
export function descendants(root: number): ProcessId[] {
  const rows = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,comm='], { encoding: 'utf8' })
    .split('\n')
    .map((l) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(l))
    .flatMap((m) => (m ? [{ pid: Number(m[1]), ppid: Number(m[2]), command: m[3]!.trim() }] : []));
  const found: ProcessId[] = [];
  const walk = (pid: number) => {
    for (const r of rows.filter((x) => x.ppid === pid)) {
      const start = processStartTime(r.pid);
      if (start) found.push({ pid: r.pid, command: r.command, start });
      walk(r.pid);
    }
  };
  walk(root);
  return found;
}

/** True while that very process runs (not a zombie, not a later process with its pid). */
export function stillThere(p: ProcessId): boolean {
  return processStartTime(p.pid) === p.start;
}
