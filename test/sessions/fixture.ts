import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { Action } from '../../src/shared/actions.js';
import type { ObservationRecord } from '../../src/shared/observation.js';
import { createRunLog, type FileRunLog } from '../../src/main/sessions/run-log.js';

/** A temporary DESKPILOT_HOME, removed by `cleanup`. */
export function tempHome(): { home: string; cleanup: () => void } {
  const home = mkdtempSync(path.join(os.tmpdir(), 'dp-sessions-'));
  return { home, cleanup: () => rmSync(home, { recursive: true, force: true }) };
}

export const IMAGE = { width: 640, height: 400 } as const;

/** A real screenshot-like PNG: grey desktop, a window, a button; the step number tints the window. */
export async function makeScreenshot(step: number, size: { width: number; height: number } = IMAGE): Promise<Buffer> {
  const hue = (step * 47) % 200;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size.width}" height="${size.height}">
    <rect width="100%" height="100%" fill="#3a3f4b"/>
    <rect x="40" y="30" width="${size.width - 80}" height="${size.height - 60}" fill="rgb(${200 - hue / 4},${210},${220})"/>
    <rect x="40" y="30" width="${size.width - 80}" height="24" fill="#20242c"/>
    <rect x="${size.width / 2 - 60}" y="${size.height / 2 - 18}" width="120" height="36" rx="6" fill="#2f6fde"/>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

export function observationRecord(id: string, size: { width: number; height: number } = IMAGE): ObservationRecord {
  return {
    id,
    takenAt: Date.now(),
    display: { id: '0', name: 'screen', bounds: { x: 0, y: 0, width: size.width * 2, height: size.height * 2 }, scaleFactor: 1, primary: true },
    capture: { width: size.width * 2, height: size.height * 2 },
    region: { x: 0, y: 0, width: size.width * 2, height: size.height * 2 },
    image: { width: size.width, height: size.height, format: 'png' },
    cursor: { x: 100, y: 120 },
  };
}

/** The action of step `i` of the sample run: cycles through the kinds the overlay draws. */
export function sampleAction(i: number): Action {
  const x = 60 + ((i * 37) % 500);
  const y = 70 + ((i * 23) % 280);
  switch (i % 4) {
    case 0:
      return { type: 'click', x, y, button: 'left', clicks: 1, modifiers: [] };
    case 1:
      return { type: 'drag', path: [{ x, y }, { x: x + 40, y: y + 30 }], button: 'left', modifiers: [] };
    case 2:
      return { type: 'scroll', x, y, direction: 'down', amount: 3, modifiers: [] };
    default:
      return { type: 'type', text: `hello ${i}` };
  }
}

export interface SampleRunOptions {
  home: string;
  steps: number;
  /** Text that must never reach the log (an API key) — woven into model text, errors and tool output. */
  leak?: string;
  /** A typed secret (the model types a password) — must be stored masked. */
  typedSecret?: string;
  end?: boolean;
  runId?: string;
  task?: string;
  labels?: Record<string, string>;
  screenshots?: boolean;
}

/**
 * Writes a complete run the way the runner does: observation (image + thumb files),
 * model text, proposal, approval, execution, usage, sync per step, run_ended.
 */
export async function writeSampleRun(options: SampleRunOptions): Promise<{ log: FileRunLog; actions: Action[] }> {
  const log = await createRunLog({ home: options.home, runId: options.runId });
  const actions: Action[] = [];
  log.append({
    type: 'run_started',
    task: options.task ?? 'Open the settings and turn on dark mode',
    provider: 'anthropic',
    model: 'claude-test',
    policy: 'ask',
    limits: { maxSteps: 5000, maxWallMs: 3_600_000, maxCostUsd: 50 },
    skills: [],
    labels: options.labels ?? { app: 'settings' },
  });
  const shot = options.screenshots === false ? undefined : await makeScreenshot(0);
  let cost = 0;
  for (let step = 0; step < options.steps; step += 1) {
    const obsId = `obs-${step}`;
    if (shot) {
      const png = step === 0 ? shot : await makeScreenshot(step);
      const image = await log.writeFile(`shots/${String(step).padStart(4, '0')}.png`, png);
      const thumb = await log.writeFile(`shots/${String(step).padStart(4, '0')}.thumb.png`, await sharp(png).resize(160).png().toBuffer());
      log.append({ type: 'observation', step, observation: observationRecord(obsId), image, thumb, settleMs: 40 });
    }
    const action: Action = step === 1 && options.typedSecret ? { type: 'type', text: options.typedSecret } : sampleAction(step);
    actions.push(action);
    const callId = `call-${step}`;
    log.append({
      type: 'model_text',
      step,
      text: `Step ${step}: I will act now.${options.leak ? ` (debug: key=${options.leak})` : ''}`,
      kind: 'text',
      assistant: {
        calls: [{ callId, name: 'computer', input: action.type === 'type' ? { action: 'type', text: action.text } : { action: action.type }, actions: [{ ok: true, action }] }],
        providerState: { blocks: [{ type: 'tool_use', id: callId, input: action.type === 'type' ? { text: action.text } : {} }] },
      },
    });
    log.append({ type: 'action_proposed', step, proposalId: `p-${step}`, action, observationId: obsId, reasoning: `because step ${step}`, callId });
    log.append({ type: 'approval_requested', proposalId: `p-${step}`, decision: { verdict: 'ask', rule: 'mode:ask', reason: 'every action is asked in ask mode', humanOnly: false } });
    log.append({ type: 'approval_answered', proposalId: `p-${step}`, answer: { decision: 'approve' }, by: { kind: 'person', detail: 'cli' } });
    log.append({
      type: 'action_executed',
      step,
      proposalId: `p-${step}`,
      action,
      by: { kind: 'person', detail: 'cli' },
      ok: true,
      output: options.leak ? `env dump: OPENAI_API_KEY=${options.leak}` : undefined,
      durationMs: 12,
    });
    if (options.leak && step === 0) log.append({ type: 'error', message: `401 from provider: invalid x-api-key ${options.leak}`, retryInMs: 1000, fatal: false });
    cost += 0.0123;
    log.append({
      type: 'usage',
      step,
      stepUsage: { inputTokens: 1500, outputTokens: 80, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0.0123 },
      total: { inputTokens: 1500 * (step + 1), outputTokens: 80 * (step + 1), cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: cost },
    });
    await log.sync();
  }
  if (options.end !== false) {
    log.append({
      type: 'run_ended',
      status: 'done',
      summary: 'Dark mode is on.',
      steps: options.steps,
      total: { inputTokens: 1500 * options.steps, outputTokens: 80 * options.steps, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: cost },
    });
    await log.close();
  }
  return { log, actions };
}
