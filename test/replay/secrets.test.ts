/**
 * A replay never types a mask (issue 28 item 6): a step whose text was masked when logged
 * is typed from the environment variable its secretRef names (told to the log's scrubber
 * first), or the replay stops with a divergence that says what is missing — never healed
 * by a model asked to make a password up. A set_value's password flag is the field's
 * state now, not the trajectory's.
 */
import { describe, expect, it } from 'vitest';
import type { Action } from '../../src/shared/actions.js';
import { TRAJECTORY_FORMAT, TRAJECTORY_SCHEMA, TrajectorySchema, type Trajectory } from '../../src/shared/trajectory.js';
import { ReplayProvider } from '../../src/main/agent/replay/replay-provider.js';
import { maskedText } from '../../src/main/agent/replay/derive.js';
import { blockCommand, codeBlockOf } from '../../src/shared/code-block.js';
import { placeElementOp } from '../../src/main/agent/replay/element-ops.js';
import { MASKED_SECRET, REDACTED } from '../../src/main/sessions/scrub.js';
import { screenFingerprint } from '../../src/os-control/screen-match.js';
import type { ModelTurn, Provider } from '../../src/main/agent/providers/types.js';
import { H, requestOn, screen, W } from './drawn-screen.js';

const signal = new AbortController().signal;
const actionsOf = (turn: ModelTurn) => turn.assistant.calls.flatMap((c) => c.actions.flatMap((a) => (a.ok ? [a.action] : [])));

async function replayTyping(text: string, options: { env?: NodeJS.ProcessEnv; secretRef?: string; healer?: Provider } = {}) {
  return replayAction({ type: 'type', text }, options);
}

async function replayAction(action: Action, options: { env?: NodeJS.ProcessEnv; secretRef?: string; healer?: Provider } = {}) {
  const png = await screen('Password:');
  const trajectory: Trajectory = TrajectorySchema.parse({
    format: TRAJECTORY_FORMAT,
    schema: TRAJECTORY_SCHEMA,
    revision: 1,
    task: 'log in',
    runId: 'r1',
    display: { x: 0, y: 0, width: W, height: H },
    steps: [{ step: 0, intent: 'Type the password.', actions: [{ action, ...(options.secretRef ? { secretRef: { env: options.secretRef } } : {}) }], before: { image: 'b.png', fingerprint: await screenFingerprint(png) } }],
  });
  const marked: string[] = [];
  const provider = new ReplayProvider({
    trajectory,
    mode: options.healer ? 'heal' : 'strict',
    ...(options.healer ? { healer: options.healer } : {}),
    env: options.env ?? {},
    markSecret: (v) => marked.push(v),
    readFile: async () => png,
    computer: {
      findElement: () => Promise.reject(new Error('no tree')),
      elementTree: () => Promise.reject(new Error('no tree')),
      settle: async () => ({ waitedMs: 0, settled: true }),
    },
  });
  return { provider, marked, png };
}

describe('a masked secret on replay', () => {
  it('is typed from the secretRef environment variable, told to the scrubber before the turn is returned', async () => {
    const { provider, marked, png } = await replayTyping(`${MASKED_SECRET}\n`, { secretRef: 'DESKPILOT_SECRET_1', env: { DESKPILOT_SECRET_1: 'hunter2' } });
    const turn = await provider.turn(requestOn(png), signal);
    expect(actionsOf(turn)).toEqual([{ type: 'type', text: 'hunter2\n' }]);
    expect(marked).toEqual(['hunter2']);
  });

  it('with the variable unset: a secret divergence naming it, nothing typed, no look again', async () => {
    const { provider, png } = await replayTyping(MASKED_SECRET, { secretRef: 'DESKPILOT_SECRET_1' });
    const turn = await provider.turn(requestOn(png), signal);
    expect(actionsOf(turn)).toMatchObject([{ type: 'finish', success: false }]);
    expect(provider.stats.divergences).toMatchObject([{ kind: 'secret', index: 0 }]);
    expect(provider.stats.divergences[0]!.message).toBe('the step types a secret that was masked when recorded, and a mask is never typed: set the environment variable DESKPILOT_SECRET_1 to it (or replay at a terminal, which asks for it)');
  });

  it('a redacted key with no secretRef stops too, and a healing replay does not ask the model to make it up', async () => {
    const asked: unknown[] = [];
    const healer: Provider = { family: 'anthropic', model: 'h', imageTarget: () => ({ format: 'png' }), turn: async (r) => (asked.push(r), Promise.reject(new Error('asked'))) };
    const { provider, png } = await replayTyping(`export KEY=${REDACTED}`, { healer });
    expect(actionsOf(await provider.turn(requestOn(png), signal))).toMatchObject([{ type: 'finish', success: false }]);
    expect(provider.stats.divergences[0]!.message).toMatch(/names no secretRef/);
    expect(asked).toEqual([]);
  });

  it('a secret holding replacement patterns ($&, $1) is put back as it is', async () => {
    const { provider, png } = await replayTyping(MASKED_SECRET, { secretRef: 'DESKPILOT_SECRET_1', env: { DESKPILOT_SECRET_1: "a$&b$'c$1" } });
    expect(actionsOf(await provider.turn(requestOn(png), signal))).toEqual([{ type: 'type', text: "a$&b$'c$1" }]);
  });

  describe('a code block whose code held the secret (the mask is in its code now)', () => {
    const block = (code: string): Action => ({ type: 'shell', language: 'python', command: blockCommand('python', code) });
    const masked = block(`computer.mouse.click(10, 10)\ncomputer.keyboard.write("${MASKED_SECRET}")`);

    it('is run with the secret from its secretRef variable in place of the mask, told to the scrubber first', async () => {
      const { provider, marked, png } = await replayAction(masked, { secretRef: 'DESKPILOT_SECRET_1', env: { DESKPILOT_SECRET_1: 'tulip7' } });
      const [run] = actionsOf(await provider.turn(requestOn(png), signal));
      expect(run).toMatchObject({ type: 'shell', language: 'python' });
      expect(codeBlockOf(run!)?.code).toBe('computer.mouse.click(10, 10)\ncomputer.keyboard.write("tulip7")');
      expect(marked).toEqual(['tulip7']);
    });

    it('without it: a secret divergence naming the variable, the block never run with the mask', async () => {
      const { provider, png } = await replayAction(masked, { secretRef: 'DESKPILOT_SECRET_1' });
      expect(actionsOf(await provider.turn(requestOn(png), signal))).toMatchObject([{ type: 'finish', success: false }]);
      expect(provider.stats.divergences).toMatchObject([{ kind: 'secret', index: 0 }]);
      expect(provider.stats.divergences[0]!.message).toMatch(/DESKPILOT_SECRET_1/);
    });

    it('a plain shell command with a redacted key and no secretRef stops too', async () => {
      const { provider, png } = await replayAction({ type: 'shell', command: `curl -H 'Authorization: ${REDACTED}' localhost` });
      expect(actionsOf(await provider.turn(requestOn(png), signal))).toMatchObject([{ type: 'finish', success: false }]);
      expect(provider.stats.divergences[0]!.message).toMatch(/names no secretRef/);
    });
  });

  it('text that was never masked is typed as recorded', async () => {
    const { provider, marked, png } = await replayTyping('alpha');
    expect(actionsOf(await provider.turn(requestOn(png), signal))).toEqual([{ type: 'type', text: 'alpha' }]);
    expect(marked).toEqual([]);
  });

  it('maskedText: typed text and set values holding a mask', () => {
    const set = (value: string): Action => ({ type: 'element', op: 'set_value', id: 1, value });
    expect([maskedText({ type: 'type', text: MASKED_SECRET }), maskedText({ type: 'type', text: `a ${REDACTED}` }), maskedText(set(MASKED_SECRET)), maskedText({ type: 'type', text: 'plain' }), maskedText({ type: 'key', keys: 'Return', repeat: 1 })]).toEqual([true, true, true, false, false]);
    const shell = (command: string, language?: 'python'): Action => ({ type: 'shell', command, ...(language ? { language } : {}) });
    expect([maskedText(shell(`write("${MASKED_SECRET}")`, 'python')), maskedText(shell(`echo ${REDACTED}`)), maskedText(shell('echo plain'))]).toEqual([true, true, false]);
  });
});

describe('a set_value placed on a field', () => {
  it("is a password field's by the field's state now, whatever the trajectory said", async () => {
    const path = 'frame "Login" > password text "Password"';
    const field = (states: Array<'password' | 'visible'>) => ({ kind: 'found' as const, element: { path, role: 'password text', name: 'Password', states, actions: [], bounds: { x: 0, y: 0, width: 10, height: 10 }, children: [] } });
    const action = { type: 'element' as const, op: 'set_value' as const, id: 1, value: 'x', target: { path, role: 'password text', name: 'Password', x: 1, y: 1, password: false } };
    expect(await placeElementOp(action, { findElement: async () => field(['visible', 'password']) })).toMatchObject({ kind: 'placed', action: { target: { password: true } } });
    expect(await placeElementOp({ ...action, target: { ...action.target, password: true } }, { findElement: async () => field(['visible']) })).toMatchObject({ kind: 'placed', action: { target: { password: false } } });
  });
});
