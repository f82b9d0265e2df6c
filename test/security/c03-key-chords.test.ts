/**
 * Issue 12, class 3: a chord must mean the same thing to the deny rules, the risk rules
 * and the executor. Today's main read "ctrl+q+shift" as a chord whose key is "shift"
 * (the rules let it through) while the executor pressed ctrl, q, shift in that order —
 * an application saw ctrl+q. Here every spelling of a chord either reaches the rules as
 * the chord the executor presses, or is refused by the one parser before anything runs.
 *
 * Only functions that exist on both sides of the fix are used (parseKeyCombo, decide,
 * compileUserRules, the OpenAI converter), so this file fails on the old code.
 */
import { describe, expect, it } from 'vitest';
import { parseKeyCombo } from '../../src/os-control/keys.js';
import { decide } from '../../src/main/agent/supervision/policy.js';
import { compileUserRules } from '../../src/main/agent/supervision/user-rules.js';
import { parseOpenAIAction } from '../../src/main/agent/providers/parse/openai-computer.js';
import type { ActionContext } from '../../src/main/agent/gate.js';
import type { Action } from '../../src/shared/actions.js';
import type { PolicyMode } from '../../src/shared/approvals.js';

const editor: ActionContext = { step: 1, activeWindow: { app: 'mousepad', title: 'notes.txt' } };
const xterm: ActionContext = { step: 1, activeWindow: { app: 'xterm', title: 'bash' } };

/** What happens to a key action: refused by the parser (never runs), or the policy's verdict and rule. */
function judge(keys: string, options: { mode?: PolicyMode; deny?: string[]; context?: ActionContext } = {}): string {
  try {
    parseKeyCombo(keys);
  } catch {
    return 'refused';
  }
  const rules = compileUserRules((options.deny ?? []).map((k) => ({ effect: 'deny' as const, keys: [k] })));
  const action: Action = { type: 'key', keys, repeat: 1 };
  const d = decide(action, options.context ?? editor, { mode: options.mode ?? 'auto', rules });
  return `${d.verdict} ${d.rule}`;
}

function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((x, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [x, ...rest]));
}

/** Every order of `names`, joined by every separator models use. */
function spellings(names: string[]): string[] {
  return permutations(names).flatMap((order) => ['+', '-', ' + ', ' '].map((sep) => order.join(sep)));
}

describe('a deny rule for ctrl+q holds for every spelling of a chord that presses ctrl and q', () => {
  const deny = ['ctrl+q'];
  const variants = [
    ...spellings(['ctrl', 'q']),
    ...spellings(['ctrl', 'shift', 'q']),
    ...spellings(['ctrl', 'alt', 'q']),
    ...spellings(['CTRL', 'Q', 'SHIFT']),
    ...spellings(['Control_R', 'q']),
    ...['Ctrl+Q', 'control+q', 'Control_L+q', '⌃+q', 'ctrl+ctrl+q', 'ctrl+Control_R+q', 'q+ctrl+ctrl', 'Escape ctrl+q+shift', 'ctrl+a q+ctrl'],
  ];
  it.each(variants)('%j is denied or refused, never run', (keys) => {
    expect(judge(keys, { deny })).toMatch(/^(deny user:deny:0|refused)$/);
  });

  it('the issue examples: modifiers after the key are still modifiers', () => {
    expect(judge('ctrl+q+shift', { deny })).toBe('deny user:deny:0');
    expect(judge('q+ctrl', { deny })).toBe('deny user:deny:0');
    expect(judge('shift+q+ctrl', { deny })).toBe('deny user:deny:0');
  });
});

describe('the executor presses what the rules judged', () => {
  it.each(spellings(['ctrl', 'shift', 'q']).filter((s) => s.includes('+') || s.includes('-')))('%j presses ctrl and shift first, then q', (keys) => {
    const { chords } = parseKeyCombo(keys);
    expect(chords).toHaveLength(1);
    const pressed = chords[0]!.keys.map((k) => k.name);
    // The key comes last: an application sees it with every modifier of the chord down.
    expect(pressed.at(-1)).toBe('q');
    expect(new Set(pressed.slice(0, -1))).toEqual(new Set(['Control_L', 'Shift_L']));
  });
});

describe('two non-modifier keys in one chord are refused, not guessed', () => {
  it.each(['alt+F4+a', 'ctrl+alt+Delete+a', 'a+alt+F4', 'ctrl+c+v', 'F4-alt-a', 'ctrl+q+w', 'Return+a'])('%j', (keys) => {
    expect(() => parseKeyCombo(keys)).toThrow(/in one chord/);
    expect(judge(keys, { mode: 'risky' })).toBe('refused');
  });

  it('a modifier-only chord inside a sequence is ambiguous and refused', () => {
    expect(() => parseKeyCombo('ctrl+shift t')).toThrow(/ambiguous/);
    expect(() => parseKeyCombo('q ctrl')).toThrow(/ambiguous/);
  });
});

describe('risk rules see the chord the executor presses', () => {
  it.each([
    ['ctrl+q+shift', editor, 'ask risk:destructive-combo'],
    ['F4+alt', editor, 'ask risk:destructive-combo'],
    ['w+ctrl+shift', editor, 'ask risk:destructive-combo'],
    ['Delete+alt+ctrl', editor, 'ask risk:destructive-combo'],
    ['ctrl+c+shift', xterm, 'ask risk:terminal-control'],
    ['d+ctrl', xterm, 'ask risk:terminal-control'],
    ['l+super', editor, 'ask risk:destructive-combo'],
    ['q+win', editor, 'ask risk:destructive-combo'],
    ['Q+COMMAND', editor, 'ask risk:destructive-combo'],
    ['Return+shift', xterm, 'ask risk:terminal-enter'],
  ] as const)('%j in %o', (keys, context, verdict) => {
    expect(judge(keys, { mode: 'risky', context })).toBe(verdict);
  });
});

describe("OpenAI's key arrays", () => {
  const image = { width: 1280, height: 800 };
  it.each([[['CTRL', 'Q', 'SHIFT']], [['Q', 'CTRL']], [['SHIFT', 'Q', 'CONTROL']]])('%j is judged as ctrl+q', (keys) => {
    const entry = [parseOpenAIAction({ type: 'keypress', keys }, { image })].flat()[0]!;
    if (!entry.ok) return expect(entry.error).toMatch(/in one chord/);
    const action = entry.action;
    expect(action.type).toBe('key');
    const rules = compileUserRules([{ effect: 'deny', keys: ['ctrl+q'] }]);
    expect(decide(action, editor, { mode: 'auto', rules }).verdict).toBe('deny');
  });

  it('an OpenAI chord of two keys is refused', () => {
    const entry = [parseOpenAIAction({ type: 'keypress', keys: ['ALT', 'F4', 'A'] }, { image })].flat()[0]!;
    expect(entry.ok).toBe(false);
  });
});

describe('the plus key, the OS key and sequences', () => {
  it.each(['ctrl++', 'ctrl +', 'ctrl + +', 'plus+ctrl', 'ctrl+plus', 'CTRL+PLUS'])('%j is ctrl and the plus key', (keys) => {
    expect(judge(keys, { deny: ['ctrl+plus'] })).toBe('deny user:deny:0');
  });

  it.each(['super+q', 'win+q', 'cmd+q', 'q+super', 'Super_L+q', 'Super_R+q', 'windows-q', '⌘+q'])('%j is super+q', (keys) => {
    expect(judge(keys, { deny: ['super+q'] })).toBe('deny user:deny:0');
  });

  it('every chord of a sequence is judged (xdotool style)', () => {
    expect(judge('ctrl+a BackSpace ctrl+q', { deny: ['ctrl+q'] })).toBe('deny user:deny:0');
    expect(judge('Down Down q+ctrl', { deny: ['ctrl+q'] })).toBe('deny user:deny:0');
  });
});

describe('a shifted character is judged as the chord xdotool presses (Shift added)', () => {
  // xdotool presses "ctrl+exclam" as ctrl+shift+1 (test/os-control/input.desktop.test.ts
  // asserts what the app received); a rule written either way judges both spellings.
  it.each([
    ['ctrl+exclam', 'ctrl+shift+1'],
    ['ctrl+!', 'ctrl+shift+1'],
    ['ctrl+shift+1', 'ctrl+exclam'],
    ['ctrl+plus', 'ctrl+shift+equal'],
    ['ctrl+shift+equal', 'ctrl+plus'],
    ['ctrl+bar', 'ctrl+shift+backslash'],
    ['super+at', 'super+shift+2'],
  ])('%j is denied by a rule for %j', (keys, rule) => {
    expect(judge(keys, { deny: [rule] })).toBe('deny user:deny:0');
  });

  it('a rule for the unshifted chord still catches the shifted one (containment), not the reverse', () => {
    expect(judge('ctrl+exclam', { deny: ['ctrl+1'] })).toBe('deny user:deny:0');
    expect(judge('ctrl+1', { deny: ['ctrl+exclam'] })).not.toBe('deny user:deny:0');
  });

  it('letters are pressed as written: "ctrl+Q" is ctrl+q, not ctrl+shift+q', () => {
    expect(judge('ctrl+Q', { deny: ['ctrl+q'] })).toBe('deny user:deny:0');
    expect(judge('ctrl+Q', { deny: ['ctrl+shift+q'] })).not.toBe('deny user:deny:0');
  });
});
