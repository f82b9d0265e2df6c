import { createRequire } from 'node:module';
import path from 'node:path';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import type { OcrLayout } from './types.js';

/**
 * One Tesseract worker per process, created on first use from the English data that
 * ships in node_modules (@tesseract.js-data/eng): no network, no cache written.
 * Jobs run one at a time; the worker is a WebAssembly thread, so the event loop stays free.
 */

const require = createRequire(import.meta.url);

/** Folder that holds eng.traineddata.gz (the "best_int" LSTM model reads small UI text best). */
export function englishDataPath(variant: 'fast' | 'best' = 'best'): string {
  const pkg = require.resolve('@tesseract.js-data/eng/package.json');
  return path.join(path.dirname(pkg), variant === 'best' ? '4.0.0_best_int' : '4.0.0');
}

const PSM_OF: Record<OcrLayout, PSM> = {
  sparse: PSM.SPARSE_TEXT,
  block: PSM.SINGLE_BLOCK,
  line: PSM.SINGLE_LINE,
  word: PSM.SINGLE_WORD,
};

export interface RawWord {
  text: string;
  confidence: number;
  bbox: { x0: number; y0: number; x1: number; y1: number };
  line: number;
}

let workerPromise: Promise<Worker> | undefined;
let queue: Promise<unknown> = Promise.resolve();

function getWorker(): Promise<Worker> {
  workerPromise ??= createWorker('eng', OEM.LSTM_ONLY, {
    langPath: englishDataPath(),
    gzip: true,
    cacheMethod: 'none',
  }).catch((error: unknown) => {
    workerPromise = undefined;
    throw new Error(`OCR: could not start Tesseract: ${error instanceof Error ? error.message : String(error)}`);
  });
  return workerPromise;
}

/** Recognise a prepared PNG; word boxes are in that PNG's pixels. */
export function recognizeWords(png: Buffer, layout: OcrLayout, signal?: AbortSignal, whitelist?: string): Promise<RawWord[]> {
  const job = queue.then(async () => {
    signal?.throwIfAborted();
    const worker = await getWorker();
    // The whitelist is a worker setting: set it (or clear it) on every job.
    await worker.setParameters({ tessedit_pageseg_mode: PSM_OF[layout], user_defined_dpi: '300', tessedit_char_whitelist: whitelist ?? '' });
    const result = await worker.recognize(png, {}, { blocks: true, text: false });
    signal?.throwIfAborted();
    const words: RawWord[] = [];
    let line = 0;
    for (const block of result.data.blocks ?? []) {
      for (const paragraph of block.paragraphs) {
        for (const l of paragraph.lines) {
          for (const w of l.words) {
            const text = w.text.trim();
            if (text) words.push({ text, confidence: w.confidence, bbox: w.bbox, line });
          }
          line += 1;
        }
      }
    }
    return words;
  });
  // Keep the queue alive after a failed job.
  queue = job.catch(() => undefined);
  return job;
}

/** Stop the worker (tests, app shutdown). The next call starts a new one. */
export async function terminateOcr(): Promise<void> {
  const pending = workerPromise;
  workerPromise = undefined;
  if (pending) await (await pending).terminate();
}
