import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FakeRequest, FakeToolCall } from '../harness/fake-model/index.js';
import type { RunOptions } from '../../src/main/agent/run-api.js';
import { defaultConfig } from '../../src/main/config/index.js';

/** Helpers shared by the runner, CLI and end-to-end tests. */

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BIN = path.join(REPO_ROOT, 'bin', 'deskpilot.js');

/** A temporary DESKPILOT_HOME, removed by the returned cleanup. */
export function tempHome(prefix = 'deskpilot-test-'): { home: string; cleanup(): void } {
  const home = mkdtempSync(path.join(os.tmpdir(), prefix));
  // DESKPILOT_KEEP_TEST_HOME=1 keeps every home (its sessions, divergence reports, logs) to look at after a failure.
  return { home, cleanup: () => (process.env.DESKPILOT_KEEP_TEST_HOME === '1' ? undefined : rmSync(home, { recursive: true, force: true })) };
}

/** The last screenshot in a model request (the one whose pixel space the model answers in). */
export function lastImage(req: FakeRequest): { width: number; height: number } {
  const image = req.images[req.images.length - 1];
  if (!image) throw new Error(`request #${req.index} carries no image`);
  return image;
}

/**
 * A screen point in the pixel space of the request's last screenshot, computed as a
 * model would: from the image size it received and the screen size it knows.
 */
export function toImagePoint(req: FakeRequest, screen: { width: number; height: number }, p: { x: number; y: number }): [number, number] {
  const image = lastImage(req);
  return [Math.round((p.x * image.width) / screen.width), Math.round((p.y * image.height) / screen.height)];
}

/** Claude's dated computer tool (computer_20250124, e.g. claude-haiku-4-5). */
export const claude = {
  click: (x: number, y: number): FakeToolCall => ({ name: 'computer', input: { action: 'left_click', coordinate: [x, y] } }),
  type: (text: string): FakeToolCall => ({ name: 'computer', input: { action: 'type', text } }),
  key: (text: string): FakeToolCall => ({ name: 'computer', input: { action: 'key', text } }),
  screenshot: (): FakeToolCall => ({ name: 'computer', input: { action: 'screenshot' } }),
  raw: (input: unknown): FakeToolCall => ({ name: 'computer', input }),
};

export const finish = (success: boolean, summary: string): FakeToolCall => ({ name: 'finish', input: { success, summary } });

export interface CliRun {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** JSON events printed so far (with --json). */
  events(): Array<Record<string, unknown>>;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Runs bin/deskpilot.js as a user would, with the given environment. */
export function runCli(args: string[], env: NodeJS.ProcessEnv, options: { stdin?: string; keepStdinOpen?: boolean; cwd?: string } = {}): CliRun {
  const child = spawn(process.execPath, [BIN, ...args], { env, cwd: options.cwd ?? REPO_ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  if (options.stdin !== undefined) child.stdin!.write(options.stdin);
  if (!options.keepStdinOpen) child.stdin!.end();
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    events: () =>
      out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>),
    exit,
  };
}

/** Polls until `check` returns a value (not undefined/false), or fails after timeoutMs. */
export async function until<T>(check: () => T | undefined | false, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * startRun's options for a test: a test key, policy auto, small limits and the
 * default config, with whatever the test names on top.
 */
export function testRunOptions(options: Pick<RunOptions, 'task' | 'profile' | 'computer' | 'home'> & Partial<RunOptions>): RunOptions {
  return {
    apiKey: 'test-key',
    policy: 'auto',
    limits: { maxSteps: 5, maxWallMs: 60_000, maxCostUsd: 5 },
    config: defaultConfig(),
    ...options,
  };
}
