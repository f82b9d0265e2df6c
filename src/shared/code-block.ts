import type { Action, CodeLanguage } from './actions.js';
import { visibleText } from './visible-text.js';

/**
 * A code block of the `code` harness as the action it is proposed as (issue 31): a
 * `shell` action carrying its `language`, whose command is the code under one header
 * line naming the session it runs in (a comment in the block's language, so the text a
 * user rule or the log reads is still the code). One reader and one writer of that
 * shape, for the runner, every approval surface and the gate.
 */

/** The session a block runs in, and how a comment starts in its language. */
const SESSIONS: Readonly<Record<CodeLanguage, { name: string; comment: string }>> = {
  python: { name: 'python3', comment: '#' },
  javascript: { name: 'QuickJS', comment: '//' },
  shell: { name: 'bash', comment: '#' },
};

/** The command a block is proposed as: a header line naming the session (a comment in the block's language), then the code. */
export function blockCommand(language: CodeLanguage, code: string): string {
  const { name, comment } = SESSIONS[language];
  return `${comment} ${language} block, run in this run's persistent ${name} session\n${code}`;
}

/** The code of a (maybe edited) block command: without its header line when it still has it. */
export function codeOfCommand(language: CodeLanguage, command: string): string {
  const header = blockCommand(language, '');
  return command.startsWith(header) ? command.slice(header.length) : command;
}

export interface CodeBlock {
  language: CodeLanguage;
  code: string;
}

/** The code block an action is, or undefined for any other action (a plain shell command too). */
export function codeBlockOf(action: Action): CodeBlock | undefined {
  if (action.type !== 'shell' || action.language === undefined) return undefined;
  return { language: action.language, code: codeOfCommand(action.language, action.command) };
}

/** The same block with other code: what a person's edit makes of it. */
export function withCode(action: Action & { type: 'shell' }, block: CodeBlock): Action {
  return { ...action, command: blockCommand(block.language, block.code) };
}

/**
 * The block as a person reads it before it runs: every line numbered (right-aligned to
 * the widest number, so a call's "line 12" is found at a glance), control characters
 * made visible line by line (shared/visible-text.ts) so nothing in the code can rewrite
 * the terminal or hide a line.
 */
export function numberedLines(code: string): string[] {
  const lines = code.split('\n');
  const width = String(lines.length).length;
  return lines.map((line, i) => `${String(i + 1).padStart(width)} │ ${visibleText(line)}`);
}

/**
 * "Approve similar" (the terminal's `s`, the card's button) and ACP's "allow always"
 * never cover a code block (issue 31): a block is a program, and one approved block says
 * nothing about the next. Nor does a grant for plain shell commands reach a block.
 */
export function similarMayCover(action: Action): boolean {
  return codeBlockOf(action) === undefined;
}
