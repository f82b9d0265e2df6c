import type { OcrWord } from '../../../../os-control/ocr/types.js';
import type { ReadWords } from '../../resolve/chain.js';
import type { TranscriptImage, TranscriptItem } from '../../transcript.js';

/**
 * A planner without vision (profile `vision: false`, issue 33 item 1): it is sent no image —
 * every screenshot in the conversation is left out — and instead, with the newest screen,
 * the element list (agent/grounding, already in the request) and the words OCR reads on it,
 * one screen line per line. A text-only model reads the screen from these and names targets
 * by the words it sees.
 */
export function withoutImages(transcript: readonly TranscriptItem[]): TranscriptItem[] {
  return transcript.map((item) => {
    if (item.role === 'assistant' || !item.image) return item;
    const { image: _image, ...rest } = item;
    return rest;
  });
}

/** Longest OCR text sent: a full 1080p screen of UI text is ~2,000 characters; 6,000 leaves room for a page of prose. */
export const MAX_SCREEN_TEXT = 6_000;

/** The OCR words of the newest screenshot as lines, top to bottom (undefined without an OCR engine on this surface). */
export async function screenWords(image: TranscriptImage, read: ReadWords | undefined, signal: AbortSignal): Promise<string> {
  if (!read) return 'Words on the screen: not available (no OCR engine on this surface); use the element list.';
  const words = await read(await image.load(), { layout: 'sparse', scale: 2, signal });
  const lines = wordLines(words);
  const text = lines.join('\n');
  const cut = text.length > MAX_SCREEN_TEXT ? `${text.slice(0, MAX_SCREEN_TEXT)}\n… (${text.length - MAX_SCREEN_TEXT} more characters)` : text;
  return `Words on the screen (OCR, top to bottom; you are sent no image):\n${cut || '(none read)'}`;
}

/** OCR words → one string per text line, lines ordered by their top edge, words by their left edge. */
export function wordLines(words: readonly OcrWord[]): string[] {
  const byLine = new Map<number, OcrWord[]>();
  for (const w of words) byLine.set(w.line, [...(byLine.get(w.line) ?? []), w]);
  return [...byLine.values()]
    .map((ws) => ws.sort((a, b) => a.bbox.x - b.bbox.x))
    .sort((a, b) => a[0]!.bbox.y - b[0]!.bbox.y)
    .map((ws) => ws.map((w) => w.text).join(' '));
}
