import type { FakeRequest, FakeToolCall } from './fake-model/types.js';

/**
 * Issue 19's trajectory: 60 model turns on one screen, scripted for the fake model,
 * used by the token test (FakeComputer) and `npm run bench -- cost` (`deskpilot run` on
 * Xvfb with an xterm). A cycle of three turns — type a command, press Return, move the
 * pointer to look at the output — so two turns in three change the screen and one does
 * not (a pointer move: X11 captures do not include the pointer). Every tenth turn
 * zooms into the output instead of moving (read-only, no change), and the last one
 * finishes. Coordinates are in the pixels of the screenshot the model was sent.
 */
export const TRAJECTORY_TURNS = 60;

export type ToolShape = 'dated' | 'toolset';

/** The newest full screenshot's size, read from the request (the coordinate space). */
function screenshotSize(req: FakeRequest): { width: number; height: number } {
  const full = [...req.images].reverse().find((i) => i.width >= 640) ?? req.images.at(-1);
  return { width: full?.width ?? 1024, height: full?.height ?? 768 };
}

/** One computer action in the model's wire shape (dated: tool "computer"; toolset: one member per action). */
function computer(shape: ToolShape, action: string, input: Record<string, unknown>): FakeToolCall {
  return shape === 'dated' ? { name: 'computer', input: { action, ...input } } : { name: action, toolsetName: 'computer', input };
}

/** The action of turn `turn` (0-based), given what the model was sent. */
export function trajectoryTurn(turn: number, shape: ToolShape, req: FakeRequest): { text: string; toolCalls: FakeToolCall[] } {
  if (turn === TRAJECTORY_TURNS - 1) return { text: 'All commands ran.', toolCalls: [{ name: 'finish', input: { success: true, summary: 'typed 20 commands' } }] };
  const { width, height } = screenshotSize(req);
  const n = Math.floor(turn / 3) + 1;
  switch (turn % 3) {
    case 0:
      return { text: `Typing command ${n}.`, toolCalls: [computer(shape, 'type', { text: `echo step ${n}` })] };
    case 1:
      return { text: 'Running it.', toolCalls: [computer(shape, 'key', { text: 'Return' })] };
    default:
      if (turn % 10 === 9) {
        const region = [0, 0, Math.round(width / 2), Math.round(height / 4)];
        return { text: 'Reading the output closely.', toolCalls: [computer(shape, 'zoom', { region })] };
      }
      return { text: 'Looking at the output.', toolCalls: [computer(shape, 'mouse_move', { coordinate: [Math.round(width * 0.75), Math.round(height * 0.75) + (turn % 7)] })] };
  }
}

/** Whether turn `turn` changes the screen (what a FakeComputer should report). */
export const trajectoryChangesScreen = (turn: number): boolean => turn % 3 !== 2;
