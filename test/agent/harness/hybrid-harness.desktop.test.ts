import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderProfile } from '../../../src/shared/config.js';
import type { RunEvent } from '../../../src/shared/events.js';
import type { FakeReply, FakeRequest } from '../../harness/fake-model/index.js';
import { startDesktop, type Desktop } from '../../harness/desktop.js';
import { finish, tempHome, toImagePoint } from '../../e2e/support.js';
import { runScripted } from './harness-run.js';

// The hybrid harness (issue 31 item 4) end to end: the model is offered its family's
// computer tool AND execute in one loop, on each real wire; it clicks the probe's field
// with the GUI tool, then types with a Python or JavaScript block, and the probe page
// records exactly what it received. Both kinds of action pass the runner's gate.

const SCREEN = { width: 1280, height: 800 };
let desktop: Desktop;
const home = tempHome();

beforeAll(async () => {
  desktop = await startDesktop(SCREEN, { probe: { x: 40, y: 40, width: 1000, height: 700 }, computer: true });
}, 60_000);

afterAll(async () => {
  await desktop?.stop();
  home.cleanup();
});

const run = (profile: ProviderProfile, turns: Array<FakeReply | ((req: FakeRequest) => FakeReply)>) =>
  runScripted({ fake: desktop.fake, computer: desktop.computer, home: home.home }, profile, turns);

const fieldPoint = (req: FakeRequest): [number, number] => toImagePoint(req, SCREEN, desktop.probe.fieldCenter());

/** The executed actions' types, in order: the GUI tool's and each computer call of a block, then the block itself (a shell action). */
const executedTypes = (events: RunEvent[]) => events.flatMap((e) => (e.type === 'action_executed' ? [e.action.type] : []));

/** The hybrid guidance reached the model in its instructions (system prompt or Responses instructions). */
const toldWhenCodeIsBetter = (req: FakeRequest) => JSON.stringify(req.body).includes('Prefer it for files and folders, data');

interface Wire {
  name: string;
  profile: () => ProviderProfile;
  /** The family's GUI tool as the model calls it: a click at a point of the screenshot. */
  click: (x: number, y: number) => FakeReply['toolCalls'];
  /** The GUI tool's name among the request's tools. */
  guiTool: string;
  language: 'python' | 'javascript';
}

const WIRES: Wire[] = [
  {
    name: 'Anthropic Messages (claude-computer GA toolset)',
    profile: () => ({ provider: 'anthropic', model: 'claude-sonnet-5-5', baseUrl: desktop.fake.anthropicBaseUrl, harness: 'hybrid' }),
    click: (x, y) => [{ name: 'left_click', toolsetName: 'computer', input: { coordinate: [x, y] } }],
    guiTool: 'computer_toolset_20260801',
    language: 'python',
  },
  {
    name: 'OpenAI Responses (openai-computer)',
    profile: () => ({ provider: 'openai', model: 'gpt-5.4', baseUrl: desktop.fake.openaiBaseUrl, harness: 'hybrid' }),
    click: (x, y) => [{ name: 'computer', input: { actions: [{ type: 'click', button: 'left', x, y }] } }],
    guiTool: 'computer',
    language: 'javascript',
  },
  {
    name: 'Chat Completions (qwen-vl computer_use)',
    profile: () => ({ provider: 'openai-compatible', model: 'qwen3-vl:8b', baseUrl: desktop.fake.openaiBaseUrl, harness: 'hybrid' }),
    click: (x, y) => [{ name: 'computer_use', input: { action: 'left_click', coordinate: [x, y] } }],
    guiTool: 'computer_use',
    language: 'python',
  },
];

describe('hybrid harness: the GUI tool and execute in one loop', () => {
  for (const wire of WIRES) {
    it(`${wire.name}: clicks the field with the GUI tool, types exact Unicode and presses Enter with a ${wire.language} block`, async () => {
      await desktop.probe.reset();
      const text = `Hybrid ${wire.language}: Grüße 東京 — ½ € ✓`;
      const since = desktop.probe.nextSeq();
      const code =
        wire.language === 'python'
          ? `computer.keyboard.write(${JSON.stringify(text)})\ncomputer.keyboard.press("Return")\nprint("typed", len(${JSON.stringify(text)}))`
          : `computer.keyboard.write(${JSON.stringify(text)});\ncomputer.keyboard.press("Return");\nconsole.log("typed", [...${JSON.stringify(text)}].length);`;
      // The Qwen-VL wire scales a qwen3 model's points to 0–1000 (relative): the fake answers as that model would.
      const point = (req: FakeRequest): [number, number] => {
        const [x, y] = fieldPoint(req);
        if (wire.guiTool !== 'computer_use') return [x, y];
        const image = req.images.at(-1)!;
        return [Math.round((x * 1000) / image.width), Math.round((y * 1000) / image.height)];
      };
      const { result, events, requests } = await run(wire.profile(), [
        (req) => ({ text: 'Clicking the field first.', toolCalls: wire.click(...point(req)) }),
        { text: 'Typing with code.', toolCalls: [{ name: 'execute', input: { language: wire.language, code } }] },
        { text: 'Done.', toolCalls: [finish(true, 'typed')] },
      ]);
      expect(result.status).toBe('done');
      await desktop.probe.waitForText(`${text}\n`, 10_000);
      await desktop.probe.waitFor((e) => e.type === 'keydown' && e.key === 'Enter', { sinceSeq: since, timeoutMs: 10_000 });
      // The pointer went down in the field from the GUI tool's click.
      expect(desktop.probe.events().some((e) => e.seq >= since && e.type === 'pointerdown')).toBe(true);
      // Both tools were offered on the wire, with the guidance on when code is the better one.
      expect(requests[0]!.toolNames).toContain(wire.guiTool);
      expect(requests[0]!.toolNames).toContain('execute');
      expect(toldWhenCodeIsBetter(requests[0]!)).toBe(true);
      // The GUI click, then the block's calls as their own gated actions, then the block.
      expect(executedTypes(events)).toEqual(['click', 'type', 'key', 'shell']);
      const answer = requests[2]!.toolResults.at(-1)!;
      expect(answer.isError).toBe(false);
      expect(answer.text).toContain(`typed ${[...text].length}`);
    }, 90_000);
  }
});
