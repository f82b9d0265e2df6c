import { describe, expect, it } from 'vitest';
import { hasHiddenCharacters, visibleSegments, visibleText } from '../../src/shared/visible-text';

describe('visibleText', () => {
  it('leaves printable text (ASCII, accents, CJK, emoji without joiners) as it is', () => {
    for (const s of ['ls -la /tmp && echo "ok"', 'Grüße, café', '計算機', 'a 😀 b', 'tab-free \\u{202E} literal']) {
      expect(visibleText(s)).toBe(s);
      expect(hasHiddenCharacters(s)).toBe(false);
    }
  });

  it('shows every C0 control and DEL as its control picture, never raw', () => {
    expect(visibleText('echo hi\r; rm -rf x')).toBe('echo hi␍; rm -rf x');
    expect(visibleText('\x1b[2K\x1b]0;title\x07')).toBe('␛[2K␛]0;title␇');
    expect(visibleText('a\tb\nc\0d\x7f')).toBe('a␉b␊c␀d␡');
    for (let cp = 0; cp < 0x20; cp++) {
      const out = visibleText(String.fromCharCode(cp));
      expect(out).toBe(String.fromCodePoint(0x2400 + cp));
    }
  });

  it('escapes bidi overrides, zero-width, tag, variation, C1, odd spaces and lone surrogates as \\u{…}', () => {
    const cases: Array<[string, string]> = [
      ['\u202E', '\\u{202E}'],
      ['\u2066', '\\u{2066}'],
      ['\u200F', '\\u{200F}'],
      ['\u061C', '\\u{061C}'],
      ['\u200B', '\\u{200B}'],
      ['\u200D', '\\u{200D}'],
      ['\u2060', '\\u{2060}'],
      ['\uFEFF', '\\u{FEFF}'],
      ['\u00AD', '\\u{00AD}'],
      ['\u{E0041}', '\\u{E0041}'],
      ['\uFE0F', '\\u{FE0F}'],
      ['\u{E0100}', '\\u{E0100}'],
      ['\u009B', '\\u{009B}'],
      ['\u0085', '\\u{0085}'],
      ['\u00A0', '\\u{00A0}'],
      ['\u3000', '\\u{3000}'],
      ['\u2028', '\\u{2028}'],
      ['\u3164', '\\u{3164}'],
      ['\u2800', '\\u{2800}'],
      ['\uE000', '\\u{E000}'],
      ['\uD800', '\\u{D800}'],
      ['\u240D', '\\u{240D}'],
    ];
    for (const [input, shown] of cases) expect(visibleText(`a${input}b`)).toBe(`a${shown}b`);
  });

  it('output holds no control, format or non-ASCII space character for any BMP code point', () => {
    let all = '';
    for (let cp = 0; cp < 0x10000; cp++) all += String.fromCharCode(cp);
    const out = visibleText(all);
    expect(out).not.toMatch(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u);
    expect(out.replace(/ /g, '')).not.toMatch(/\p{Zs}/u);
  });

  it('segments say which parts were made visible, and newlines can be broken after', () => {
    expect(visibleSegments('ab\ncd\u202E')).toEqual([
      { kind: 'plain', text: 'ab' },
      { kind: 'newline', text: '␊', name: 'LF' },
      { kind: 'plain', text: 'cd' },
      { kind: 'escape', text: '\\u{202E}' },
    ]);
  });
});
