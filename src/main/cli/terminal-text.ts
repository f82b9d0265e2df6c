import { visibleText } from '../../shared/visible-text.js';

/**
 * Text the terminal prints that it did not write itself — the task, model text, a
 * shell command, text to type, error messages — goes through here: every control
 * character made visible (src/shared/visible-text.ts), so `\r`, `ESC [2K` or an OSC
 * sequence from a model can never rewrite the prompt line or the line above it.
 * Line breaks stay line breaks (each line made visible on its own, indented).
 */
export function shown(text: string, indent = ''): string {
  return text
    .split('\n')
    .map((line) => visibleText(line))
    .join(`\n${indent}`);
}

/** One line, for places where a line break would break the layout (a prompt, a list row). */
export function shownOneLine(text: string): string {
  return visibleText(text);
}

/**
 * An action as the person approving it must see it: the one describer of decisions
 * (src/shared/action-text.ts), the same the ACP requests, MCP progress notes and the HUD use.
 */
export { describeWhole as describeInFull } from '../../shared/action-text.js';
