import type { Computer } from '../../../../os-control/types.js';
import type { Rect } from '../../../../shared/actions.js';
import type { ObservationRecord } from '../../../../shared/observation.js';
import type { ReadWords } from '../../resolve/chain.js';

/**
 * A find_text match as the tools report it: tools/find-text.ts TextOnScreen's shape, not its
 * import — even a type import of find-text.ts puts os-control/ocr (tesseract.js) in the desktop
 * app's import graph as c13-electron-shell reads it.
 */
export interface TextFound {
  text: string;
  x: number;
  y: number;
  score: number;
}

/** What a code block's OCR lookups need: the resolve chain's reader and find_text's. */
export interface BlockOcr {
  readWords: ReadWords;
  textOnScreen(computer: Pick<Computer, 'observe'>, model: ObservationRecord, input: { text: string; region?: Rect | undefined }, signal?: AbortSignal): Promise<TextFound[]>;
}

/**
 * The OCR a code block's computer calls use, installed by the process that ships an OCR
 * engine (the CLI, cli.ts, loading it on first use). The desktop app ships none
 * (tesseract.js is ~58 MB; its main process never loads it, c13-electron-shell): there
 * click("text") looks in the element tree only and find_text says OCR is not here.
 */
let installed: BlockOcr | undefined;

export function installBlockOcr(ocr: BlockOcr): void {
  installed = ocr;
}

export function blockOcr(): BlockOcr | undefined {
  return installed;
}
