import { describe, expect, it } from 'vitest';
import { blockCommand, codeBlockOf, codeOfCommand, numberedLines, similarMayCover, withCode } from '../../src/shared/code-block.js';
import { visibleText } from '../../src/shared/visible-text.js';

// A code block of the code harness as the shell action it is proposed as (issue 31): the
// one writer and reader of that shape, which the gate, the approval surfaces and the runner share.

describe('a code block as a shell action', () => {
  it('the command is a header comment in the block\'s language naming its session, then the code exactly', () => {
    expect(blockCommand('python', 'print(1)\nx = 2')).toBe("# python block, run in this run's persistent python3 session\nprint(1)\nx = 2");
    expect(blockCommand('javascript', 'console.log(1);')).toBe("// javascript block, run in this run's persistent QuickJS session\nconsole.log(1);");
    expect(blockCommand('shell', 'echo hi')).toBe("# shell block, run in this run's persistent bash session\necho hi");
    expect(blockCommand('python', '')).toBe("# python block, run in this run's persistent python3 session\n");
  });

  it('the code of a command: the header taken off when it is still there, the command as it is when a person removed or changed it', () => {
    for (const language of ['python', 'javascript', 'shell'] as const) {
      const code = `line one\n  line two ✓\n`;
      expect(codeOfCommand(language, blockCommand(language, code))).toBe(code);
    }
    expect(codeOfCommand('python', 'print("edited")')).toBe('print("edited")');
    // Another language's header is not this one's: the command stays whole.
    const js = blockCommand('javascript', 'f();');
    expect(codeOfCommand('python', js)).toBe(js);
    // The header only counts at the start.
    const inside = `x = 1\n${blockCommand('python', 'y = 2')}`;
    expect(codeOfCommand('python', inside)).toBe(inside);
  });

  it('codeBlockOf: a shell action with a language is a block (its code without the header); a plain command or another action is not', () => {
    expect(codeBlockOf({ type: 'shell', language: 'python', command: blockCommand('python', 'print(2)') })).toEqual({ language: 'python', code: 'print(2)' });
    expect(codeBlockOf({ type: 'shell', language: 'shell', command: 'ls' })).toEqual({ language: 'shell', code: 'ls' });
    expect(codeBlockOf({ type: 'shell', command: blockCommand('python', 'print(2)') })).toBeUndefined();
    expect(codeBlockOf({ type: 'type', text: 'print(2)' })).toBeUndefined();
  });

  it("withCode: a person's edit replaces the code under the same header and keeps the rest of the action", () => {
    const action = { type: 'shell' as const, language: 'python' as const, command: blockCommand('python', 'old()'), timeoutMs: 5_000, reason: 'why' };
    expect(withCode(action, { language: 'python', code: 'new()' })).toEqual({ ...action, command: blockCommand('python', 'new()') });
  });

  it('numberedLines: every line numbered, right-aligned to the widest number, control characters visible', () => {
    expect(numberedLines('a\nb')).toEqual(['1 │ a', '2 │ b']);
    expect(numberedLines('')).toEqual(['1 │ ']);
    const ten = numberedLines(Array.from({ length: 10 }, (_, i) => `l${i + 1}`).join('\n'));
    expect(ten[0]).toBe(' 1 │ l1');
    expect(ten[8]).toBe(' 9 │ l9');
    expect(ten[9]).toBe('10 │ l10');
    const hidden = 'print(1)\u001b[2K\rrm -rf ~';
    const [line] = numberedLines(hidden);
    expect(line).toBe(`1 │ ${visibleText(hidden)}`);
    expect(line).not.toContain('\u001b');
    expect(line).not.toContain('\r');
  });

  it('"approve similar" never covers a code block; any other action it may', () => {
    expect(similarMayCover({ type: 'shell', language: 'python', command: blockCommand('python', 'x') })).toBe(false);
    expect(similarMayCover({ type: 'shell', language: 'shell', command: 'ls' })).toBe(false);
    expect(similarMayCover({ type: 'shell', command: 'ls' })).toBe(true);
    expect(similarMayCover({ type: 'click', x: 1, y: 2, button: 'left', clicks: 1, modifiers: [] })).toBe(true);
  });
});
