import type { ModelCall } from '../../transcript.js';
import { EXECUTE_TOOL_NAME } from './execute-tool.js';

/**
 * Code blocks in a reply, for models without function calling (the `code` harness on an
 * OpenAI-compatible server whose model writes text): each fenced block whose info string
 * names a language becomes an `execute` call, in order. An untagged fence is shown in the
 * reply's text and never run (it may be an example or output the model quotes).
 */
const LANGUAGE_TAGS: Readonly<Record<string, string>> = {
  python: 'python',
  py: 'python',
  python3: 'python',
  javascript: 'javascript',
  js: 'javascript',
  shell: 'shell',
  sh: 'shell',
  bash: 'shell',
};

/** An opening fence: three or more backticks or tildes at the start of a line, then the info string. */
const OPEN = /^(`{3,}|~{3,})[ \t]*([^\s`]*)[^\n]*$/;

export interface FencedReply {
  calls: ModelCall[];
  /** How many fences were left unrun because no language was named. */
  untagged: number;
}

export function fencedCalls(text: string, seq: number): FencedReply {
  const lines = text.split('\n');
  const calls: ModelCall[] = [];
  let untagged = 0;
  for (let i = 0; i < lines.length; i++) {
    const open = OPEN.exec(lines[i]!);
    if (!open) continue;
    const fence = open[1]!;
    const tag = open[2]!.toLowerCase();
    const body: string[] = [];
    let j = i + 1;
    // The closing fence: the same character, at least as long, nothing after it but spaces.
    for (; j < lines.length; j++) {
      const line = lines[j]!;
      if (line.trimEnd().startsWith(fence) && /^(`+|~+)\s*$/.test(line.trim()) && line.trim()[0] === fence[0]) break;
      body.push(line);
    }
    i = j;
    if (!tag) {
      untagged += 1;
      continue;
    }
    const language = LANGUAGE_TAGS[tag];
    if (!language) continue; // a fence of another kind (json, text, a diff): quoted, not code to run
    calls.push({ callId: `fence_${seq}_${calls.length}`, name: EXECUTE_TOOL_NAME, input: { language, code: body.join('\n') }, actions: [] });
  }
  return { calls, untagged };
}
