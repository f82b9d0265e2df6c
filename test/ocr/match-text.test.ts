import { describe, expect, it } from 'vitest';
import { matchText, similarity } from '../../src/os-control/ocr/match-text.js';
import type { OcrWord } from '../../src/os-control/ocr/types.js';

const word = (text: string, x: number, line = 0, confidence = 90): OcrWord => ({ text, confidence, line, bbox: { x, y: 10, width: text.length * 8, height: 12 } });

describe('label matching', () => {
  it('finds a phrase over several words of one line, with its box and centre', () => {
    const words = [word('File', 0), word('Save', 100), word('as…', 140), word('Save', 300, 1)];
    const [m] = matchText(words, 'save as');
    expect(m?.text).toBe('Save as…');
    expect(m?.bbox).toEqual({ x: 100, y: 10, width: 64, height: 12 });
    expect(m?.center).toEqual({ x: 132, y: 16 });
  });
  it('accepts a merged or slightly misread word, not a different one', () => {
    expect(matchText([word('Saveas', 0)], 'Save as')[0]?.score).toBe(1);
    expect(matchText([word('Setlings', 0)], 'Settings')[0]?.score).toBeGreaterThan(0.8);
    expect(matchText([word('Cancel', 0)], 'Delete')).toEqual([]);
  });
  it('short labels must match exactly', () => {
    expect(similarity('ac', 'ab')).toBe(0);
    expect(matchText([word('2', 0), word('3', 50)], '3')[0]?.bbox.x).toBe(50);
    expect(matchText([word('+/-', 0), word('+', 50)], '+')[0]?.bbox.x).toBe(50);
  });
  it('orders several matches best first', () => {
    const found = matchText([word('Sett1ngs', 0, 0), word('Settings', 200, 1)], 'Settings');
    expect(found.map((m) => m.text)).toEqual(['Settings', 'Sett1ngs']);
  });
});
