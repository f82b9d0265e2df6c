import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../../../src/shared/config.js';
import { findTextForRun } from '../../../../src/main/agent/tools/find-text.js';
import type { RunHandle, RunOptions } from '../../../../src/main/agent/run-api.js';
import type { Computer } from '../../../../src/os-control/types.js';
import { startFakeModel, type FakeModelServer } from '../../../harness/fake-model/index.js';
import { startProbe, type Probe } from '../../../harness/probe/probe.js';
import { startXvfb, type Xvfb } from '../../../harness/xvfb.js';
import { call, pointFromFindText } from '../../../qa/qa-support.js';

/**
 * find_text end to end on a 1920×1080 screen, which Claude's screenshots downscale:
 * the model asks for a label, gets coordinates in the pixels of the screenshot it
 * saw, clicks there, and the probe page must receive the click inside the label.
 */
const SCREEN = { width: 1920, height: 1080 };

let xvfb: Xvfb;
let probe: Probe;
let fake: FakeModelServer;
let home: string;
let computer: Computer;
let startRun: (options: RunOptions) => Promise<RunHandle>;

beforeAll(async () => {
  xvfb = await startXvfb(SCREEN);
  process.env.DISPLAY = xvfb.display;
  ({ startRun } = await import('../../../../src/main/agent/runner.js'));
  const { createComputer } = await import('../../../../src/os-control/index.js');
  computer = createComputer();
  probe = await startProbe(xvfb, { x: 0, y: 0, width: SCREEN.width, height: SCREEN.height });
  fake = await startFakeModel();
  home = mkdtempSync(path.join(os.tmpdir(), 'dp-findtext-'));
});
afterAll(async () => {
  await fake?.close();
  await probe?.close();
  await xvfb?.stop();
  if (home) rmSync(home, { recursive: true, force: true });
});

describe('find_text in a run', () => {
  it('returns model-image coordinates that land on the label when clicked', async () => {
    const [, target] = await probe.showPattern([
      { text: 'Import CSV', fontSize: 14, x: 300, y: 200 },
      { text: 'Export PNG', fontSize: 12, x: 1500, y: 880 },
    ]);
    const since = probe.nextSeq();
    let answer = '';
    let imageWidth = 0;
    fake.script(
      (req) => {
        imageWidth = req.images.at(-1)?.width ?? 0;
        return { toolCalls: [call.findText('Export PNG')] };
      },
      (req) => {
        answer = req.toolResults.at(-1)?.text ?? '';
        const at = pointFromFindText(answer);
        return at ? { toolCalls: [call.click(...at)] } : { text: `not found: ${answer}` };
      },
      { toolCalls: [{ name: 'finish', input: { success: true, summary: 'clicked' } }] },
    );
    const finder = findTextForRun(computer);
    const handle = await startRun({
      task: 'click Export PNG',
      profile: { provider: 'anthropic', model: 'claude-haiku-4-5', baseUrl: fake.anthropicBaseUrl },
      apiKey: 'sk-ant-test',
      policy: 'auto',
      limits: { maxSteps: 5, maxWallMs: 90_000, maxCostUsd: 1 },
      config: ConfigSchema.parse({}),
      computer,
      home,
      tools: [finder.tool],
      onEvent: finder.onEvent,
    });
    const result = await handle.done;
    expect(result.status, `${result.summary} / ${answer}`).toBe('done');
    // The screenshot was downscaled, so the answer had to be mapped, not copied from the screen.
    expect(imageWidth).toBeLessThan(SCREEN.width);
    expect(answer).toMatch(/^find_text: 1 match\(es\) for "Export PNG"/);
    const box = target!;
    const { down } = await probe.expectClickAt(box.x + box.width / 2, box.y + box.height / 2, {
      sinceSeq: since,
      tolerance: Math.ceil(box.width / 2),
      timeoutMs: 5_000,
    });
    // Inside the drawn text box, not just near it.
    const p = probe.screenPos(down);
    expect(p.x).toBeGreaterThanOrEqual(box.x - 2);
    expect(p.x).toBeLessThanOrEqual(box.x + box.width + 2);
    expect(p.y).toBeGreaterThanOrEqual(box.y - 2);
    expect(p.y).toBeLessThanOrEqual(box.y + box.height + 2);
  }, 120_000);
});
