import type { Rect } from '../../shared/actions.js';

/** One recognised word, with its box in the pixel space of the image that was passed in. */
export interface OcrWord {
  text: string;
  /** Tesseract's confidence, 0–100. */
  confidence: number;
  bbox: Rect;
  /** Index of the text line the word belongs to (words of one line share it). */
  line: number;
}

export interface OcrResult {
  /** All text, lines separated by "\n", whitespace collapsed within a line. */
  text: string;
  words: OcrWord[];
  /** Words Tesseract found but was too unsure of to keep (confidence < 30): text may be missing. */
  droppedWords: number;
}

/**
 * How the page is laid out, as far as Tesseract's page segmentation is concerned:
 * `sparse` finds scattered labels (a screen), `block` reads a paragraph,
 * `line` reads one line (a calculator display, a text field), `word` one word.
 */
export type OcrLayout = 'sparse' | 'block' | 'line' | 'word';

export interface OcrOptions {
  /** Only read this part of the image (image pixels). */
  region?: Rect;
  layout?: OcrLayout;
  /**
   * Upscale factor before recognition. Small UI fonts (10–13 px) need 3×; large
   * screens read faster at 2×. Default: chosen from the region size.
   */
  scale?: number;
  /** Physical pixels per logical pixel of the image (HiDPI captures: 2); default 1. */
  pixelRatio?: number;
  /** Which way round the text is (preprocess.ts); default `local`. */
  polarity?: 'local' | 'dark-text' | 'light-text';
  /** Threshold after upscaling (a variant for bitmap fonts and highlights). */
  binarize?: boolean;
  /** Upscaling kernel; default `lanczos3`. */
  kernel?: 'lanczos3' | 'nearest';
  /**
   * Only these characters may be recognised (Tesseract's tessedit_char_whitelist), e.g.
   * the digits when a number is expected. A reading made under a whitelist cannot show
   * a misread as a foreign character, so checks use it to confirm, never to fail.
   */
  whitelist?: string;
  /**
   * Words under this confidence (0–100) are dropped; default 30. Redaction keeps them all
   * (0): a secret read unsurely is still a secret.
   */
  minConfidence?: number;
  signal?: AbortSignal;
}

export interface TextMatch {
  /** The words that matched, joined by single spaces. */
  text: string;
  /** Box around the matched words, in the pixel space of the image passed in. */
  bbox: Rect;
  /** The middle of the box: where to click. */
  center: { x: number; y: number };
  /** 0–1: 1 is an exact (case-insensitive) match. */
  score: number;
  confidence: number;
}
