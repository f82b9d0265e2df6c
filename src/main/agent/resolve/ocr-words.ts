import { readText } from '../../../os-control/ocr/index.js';
import type { OcrOptions, OcrWord } from '../../../os-control/ocr/types.js';

/**
 * The resolve chain's OCR reader on a surface that ships tesseract.js (the CLI, MCP,
 * serve): its words of an image. Apart from chain.ts so that the desktop app's main
 * process, which reaches the chain through the code harness, never loads the engine.
 */
export async function ocrWords(image: Buffer, options: OcrOptions): Promise<OcrWord[]> {
  return (await readText(image, options)).words;
}
