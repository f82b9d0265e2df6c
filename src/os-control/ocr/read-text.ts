import { recognizeWords } from './engine.js';
import { prepareForOcr } from './preprocess.js';
import type { OcrOptions, OcrResult, OcrWord } from './types.js';

/** Low-confidence fragments are usually icons or borders read as letters. */
const MIN_WORD_CONFIDENCE = 30;

/**
 * Read the text of an image (PNG/JPEG/WebP buffer), or of one region of it. Word
 * boxes come back in the pixel space of the image passed in, whatever the upscaling.
 */
export async function readText(image: Buffer, options: OcrOptions = {}): Promise<OcrResult> {
  // find_text is often asked several labels on one screenshot: recognise each (image, pass) once.
  const key = JSON.stringify([options.region, options.layout ?? 'sparse', options.scale, options.pixelRatio, options.polarity, options.binarize, options.kernel, options.whitelist, options.minConfidence]);
  let perImage = cache.get(image);
  if (!perImage) cache.set(image, (perImage = new Map()));
  const cached = perImage.get(key);
  if (cached) return cached;
  const result = recognise(image, options);
  perImage.set(key, result);
  result.catch(() => perImage.delete(key));
  return result;
}

/** Results by image buffer (dropped with the buffer) and pass. */
const cache = new WeakMap<Buffer, Map<string, Promise<OcrResult>>>();

async function recognise(image: Buffer, options: OcrOptions): Promise<OcrResult> {
  const prepared = await prepareForOcr(image, {
    region: options.region,
    scale: options.scale,
    pixelRatio: options.pixelRatio,
    polarity: options.polarity,
    binarize: options.binarize,
    kernel: options.kernel,
  });
  const raw = await recognizeWords(prepared.png, options.layout ?? 'sparse', options.signal, options.whitelist);
  const words: OcrWord[] = raw
    .filter((w) => w.confidence >= (options.minConfidence ?? MIN_WORD_CONFIDENCE))
    .map((w) => ({
      text: w.text,
      confidence: w.confidence,
      line: w.line,
      bbox: {
        x: prepared.offset.x + w.bbox.x0 / prepared.scale,
        y: prepared.offset.y + w.bbox.y0 / prepared.scale,
        width: Math.max(1, (w.bbox.x1 - w.bbox.x0) / prepared.scale),
        height: Math.max(1, (w.bbox.y1 - w.bbox.y0) / prepared.scale),
      },
    }));
  return { text: joinLines(words), words, droppedWords: raw.length - words.length };
}

function joinLines(words: OcrWord[]): string {
  const lines = new Map<number, string[]>();
  for (const w of words) {
    const list = lines.get(w.line) ?? [];
    list.push(w.text);
    lines.set(w.line, list);
  }
  return [...lines.values()].map((l) => l.join(' ')).join('\n');
}
