import { describe, expect, it } from 'vitest';
import { charMapFromXmodmap, usCharMap } from '../../src/os-control/keymap.js';
import { planTyping } from '../../src/os-control/typing.js';

// Lines as `xmodmap -pke` prints them for a pc105 US keyboard (excerpt).
const US_PC105 = `keycode  10 = 1 exclam 1 exclam
keycode  20 = minus underscore minus underscore
keycode  21 = equal plus equal plus
keycode  38 = a A a A
keycode  59 = comma less comma less
keycode  60 = period greater period greater
keycode  65 = space NoSymbol space
keycode  94 = less greater less greater bar brokenbar bar brokenbar`;

// A German layout excerpt: z and y swapped, "-" on the key right of period, "_" shifted.
const DE = `keycode  29 = z Z z Z leftarrow yen
keycode  52 = y Y y Y guillemetright greater
keycode  61 = minus underscore minus underscore dead_belowdot dead_abovedot
keycode  20 = ssharp question ssharp question backslash questiondown`;

describe('char map from the X keymap', () => {
  it('finds plain and shifted strokes, skipping keycodes nut.js cannot press', () => {
    const m = charMapFromXmodmap(US_PC105);
    expect(m.strokeFor('a')).toMatchObject({ key: { name: 'a' }, shift: false });
    expect(m.strokeFor('A')).toMatchObject({ key: { name: 'a' }, shift: true });
    expect(m.strokeFor('!')).toMatchObject({ key: { name: '1' }, shift: true });
    expect(m.strokeFor('+')).toMatchObject({ key: { name: 'equal' }, shift: true });
    // "<" is plain on the ISO key 94, which nut.js has no name for: use Shift+comma.
    expect(m.strokeFor('<')).toMatchObject({ key: { name: 'comma' }, shift: true });
    expect(m.strokeFor(' ')).toMatchObject({ key: { name: 'space' }, shift: false });
    expect(m.strokeFor('\n')).toMatchObject({ key: { name: 'Return' } });
    expect(m.strokeFor('\t')).toMatchObject({ key: { name: 'Tab' } });
    expect(m.strokeFor('ü')).toBeUndefined();
  });

  it('follows a non-US layout', () => {
    const m = charMapFromXmodmap(DE);
    expect(m.strokeFor('y')).toMatchObject({ key: { name: 'y' }, shift: false });
    expect(m.strokeFor('_')).toMatchObject({ key: { name: 'minus' }, shift: true });
    // "?" sits on the ß key, which nut.js cannot press: no stroke, it is pasted.
    expect(m.strokeFor('?')).toBeUndefined();
  });

  it('types CR LF and CR as one Enter', () => {
    const runs = planTyping('a\r\nb\rc', usCharMap());
    expect(runs).toHaveLength(1);
    expect(runs[0]!.kind === 'keys' && runs[0]!.strokes.map((s) => s.key.name)).toEqual(['a', 'Return', 'b', 'Return', 'c']);
  });

  it('plans strokes and paste runs by code point', () => {
    const runs = planTyping('Grüße 👋!', usCharMap());
    expect(runs.map((r) => (r.kind === 'paste' ? `paste:${r.text}` : `keys:${r.strokes.length}`))).toEqual([
      'keys:2',
      'paste:üß',
      'keys:2',
      'paste:👋',
      'keys:1',
    ]);
  });
});
