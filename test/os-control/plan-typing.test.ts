import { describe, expect, it } from 'vitest';
import type { CharMap } from '../../src/os-control/keymap.js';
import { usCharMap } from '../../src/os-control/keymap.js';
import { resolveKey } from '../../src/os-control/keys.js';
import { planTyping } from '../../src/os-control/typing.js';

/** planTyping's edges: text that begins with a run to paste, and what a char map is asked. */
const shown = (runs: ReturnType<typeof planTyping>) => runs.map((r) => (r.kind === 'keys' ? `keys ${r.strokes.map((s) => s.key.name).join(' ')}` : `paste ${r.text}`));

describe('planTyping edges', () => {
  it('text that begins with characters to paste starts with one paste run', () => {
    expect(shown(planTyping('€éab', usCharMap()))).toEqual(['paste €é', 'keys a b']);
  });

  it('text of only characters to paste is one paste run', () => {
    expect(shown(planTyping('日本語', usCharMap()))).toEqual(['paste 日本語']);
  });

  it('asks the char map about single UTF-16 units only: a character outside the BMP is pasted whatever the map says', () => {
    const asked: string[] = [];
    const greedy: CharMap = {
      strokeFor: (ch) => {
        asked.push(ch);
        return { key: resolveKey('x'), shift: false };
      },
    };
    expect(shown(planTyping('a👋b', greedy))).toEqual(['keys x', 'paste 👋', 'keys x']);
    expect(asked).toEqual(['a', 'b']);
  });
});
