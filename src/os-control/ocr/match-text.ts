import type { OcrWord, TextMatch } from './types.js';

/**
 * Finding a label among OCR words: the query may span several words of one line
 * ("Save as…"), OCR may merge them ("Saveas") or misread a letter. Comparison is
 * case-insensitive, ignores punctuation at word edges, and allows a small edit distance.
 */

export function normalizeText(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Strip punctuation at the edges of a token; keep a token made only of punctuation ("+", "="). */
function normalizeToken(token: string): string {
  const n = normalizeText(token);
  const stripped = n.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
  return stripped || n;
}

export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur.push(Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost));
    }
    prev = cur;
  }
  return prev[b.length] ?? Math.max(a.length, b.length);
}

/** 1 for equal strings, towards 0 as they differ; strings of ≤ 2 characters must be equal. */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  const longest = Math.max(a.length, b.length);
  if (longest <= 2) return 0;
  return 1 - levenshtein(a, b) / longest;
}

export interface MatchOptions {
  /** Lowest score accepted (default 0.8). */
  minScore?: number;
  /** Whole-word matches only (default true); false also finds the query inside a longer word. */
  wholeWords?: boolean;
}

export function matchText(words: readonly OcrWord[], query: string, options: MatchOptions = {}): TextMatch[] {
  const minScore = options.minScore ?? 0.8;
  const wanted = normalizeText(query).split(' ').map(normalizeToken).filter(Boolean);
  if (wanted.length === 0) return [];
  const wantedJoined = wanted.join(' ');
  const wantedTight = wanted.join('');

  const byLine = new Map<number, OcrWord[]>();
  for (const w of words) byLine.set(w.line, [...(byLine.get(w.line) ?? []), w]);

  const matches: TextMatch[] = [];
  for (const line of byLine.values()) {
    const tokens = line.map((w) => normalizeToken(w.text));
    // Windows of the query's length, and one word shorter/longer (OCR splits and merges words).
    const sizes = new Set([wanted.length, Math.max(1, wanted.length - 1), wanted.length + 1]);
    for (const size of sizes) {
      for (let start = 0; start + size <= line.length; start++) {
        const slice = tokens.slice(start, start + size);
        let score = Math.max(similarity(slice.join(' '), wantedJoined), similarity(slice.join(''), wantedTight));
        if (options.wholeWords === false && score < minScore && slice.join(' ').includes(wantedJoined)) score = minScore;
        if (score >= minScore) matches.push(toMatch(line.slice(start, start + size), score));
      }
    }
  }
  return dedupe(matches).sort((a, b) => b.score - a.score || b.confidence - a.confidence);
}

function toMatch(words: OcrWord[], score: number): TextMatch {
  const x0 = Math.min(...words.map((w) => w.bbox.x));
  const y0 = Math.min(...words.map((w) => w.bbox.y));
  const x1 = Math.max(...words.map((w) => w.bbox.x + w.bbox.width));
  const y1 = Math.max(...words.map((w) => w.bbox.y + w.bbox.height));
  const bbox = { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
  return {
    text: words.map((w) => w.text).join(' '),
    bbox,
    center: { x: Math.round(x0 + bbox.width / 2), y: Math.round(y0 + bbox.height / 2) },
    score,
    confidence: Math.min(...words.map((w) => w.confidence)),
  };
}

/** Overlapping windows over the same words: keep the best one. */
function dedupe(matches: TextMatch[]): TextMatch[] {
  const kept: TextMatch[] = [];
  for (const m of [...matches].sort((a, b) => b.score - a.score)) {
    if (!kept.some((k) => overlap(k.bbox, m.bbox) > 0.5)) kept.push(m);
  }
  return kept;
}

function overlap(a: TextMatch['bbox'], b: TextMatch['bbox']): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  if (w <= 0 || h <= 0) return 0;
  return (w * h) / Math.min(a.width * a.height, b.width * b.height);
}
