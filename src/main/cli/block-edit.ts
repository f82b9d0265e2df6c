import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CodeBlock } from '../../shared/code-block.js';
import type { LinePrompter } from './line-prompter.js';

/**
 * `e` on a code block at the terminal (issue 31, as Open Interpreter does it): the block
 * opens in the person's editor ($VISUAL, else $EDITOR — run through `sh -c` so "code -w"
 * or "vim -u NONE" work as they do for git); what the file holds when the editor exits
 * is the block that runs. Without an editor the new code is typed line by line, ended
 * by a line holding only "." (as `mail` and `ed` take text), indentation kept.
 *
 * The outcome is the new code, or why nothing changed (said, then asked again): the
 * editor failed or exited non-zero, the file was left as it was, the code is empty.
 */
export type BlockEditOutcome = { code: string } | { unchanged: string } | { ended: true };

/** File name endings editors pick their syntax by. */
const EXTENSION: Record<CodeBlock['language'], string> = { python: '.py', javascript: '.js', shell: '.sh' };

/** The editor command a person chose, if any. */
export function chosenEditor(env: NodeJS.ProcessEnv): string | undefined {
  return env.VISUAL?.trim() || env.EDITOR?.trim() || undefined;
}

export async function editBlock(block: CodeBlock, io: { prompter: LinePrompter; stderr: NodeJS.WritableStream; env: NodeJS.ProcessEnv }): Promise<BlockEditOutcome> {
  const editor = chosenEditor(io.env);
  const edited = editor ? await io.prompter.holdInput(() => inEditor(editor, block, io.env)) : await typedLines(io.prompter);
  if ('ended' in edited || 'unchanged' in edited) return edited;
  if (!edited.code.trim()) return { unchanged: 'the edited block is empty; the block is unchanged' };
  if (edited.code === block.code) return { unchanged: 'the code was not changed' };
  return edited;
}

async function inEditor(editor: string, block: CodeBlock, env: NodeJS.ProcessEnv): Promise<BlockEditOutcome> {
  const dir = mkdtempSync(path.join(tmpdir(), 'deskpilot-block-'));
  const file = path.join(dir, `block${EXTENSION[block.language]}`);
  try {
    // mkdtemp makes the folder 0700: the code is the person's to read, nobody else's.
    writeFileSync(file, block.code.endsWith('\n') ? block.code : `${block.code}\n`, { mode: 0o600 });
    const exit = await new Promise<{ code: number | null; error?: string }>((resolve) => {
      const child = spawn('sh', ['-c', `${editor} "$1"`, 'editor', file], { stdio: 'inherit', env });
      child.once('error', (error) => resolve({ code: null, error: error.message }));
      child.once('exit', (code, signal) => resolve({ code, ...(signal ? { error: `ended by ${signal}` } : {}) }));
    });
    if (exit.error !== undefined || exit.code !== 0) return { unchanged: `the editor (${editor}) ${exit.error ?? `exited with ${exit.code}`}; the block is unchanged` };
    // The newline the file was given is not part of the code; one the person added at the end is kept.
    const text = readFileSync(file, 'utf8');
    return { code: block.code.endsWith('\n') || !text.endsWith('\n') ? text : text.slice(0, -1) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The block typed at the prompt, a line at a time, ended by "." alone; null input (stdin ended) ends the edit. */
async function typedLines(prompter: LinePrompter): Promise<BlockEditOutcome> {
  const lines: string[] = [];
  let question = 'New code, line by line; a line with only "." ends it ($EDITOR is not set):\n';
  for (;;) {
    const line = await prompter.ask(question, { keepSpaces: true });
    if (line === null) return { ended: true };
    if (line.cut) return { unchanged: 'a line was too long; the block is unchanged' };
    if (line.text.trim() === '.') return { code: lines.join('\n') };
    lines.push(line.text);
    question = '';
  }
}
