import { readClipboardText, writeClipboardText } from '../../../../os-control/clipboard.js';
import type { ClipboardOp } from './computer-api.js';

/**
 * `computer.clipboard.view()` and `.copy(text)` of a code block: the X clipboard (the
 * CLIPBOARD selection, through xclip, os-control/clipboard.ts — the typist's paste path
 * uses the same). Other platforms raise in the code, saying so: nothing is done.
 */
export type BlockClipboard = (op: ClipboardOp) => Promise<string | null>;

export function blockClipboard(platform: NodeJS.Platform = process.platform): BlockClipboard {
  return async (op) => {
    if (platform !== 'linux') throw new Error(`computer.clipboard: not available on ${platform} yet (X11 only); nothing was done`);
    switch (op.op) {
      case 'view':
        return readClipboardText();
      case 'copy':
        await writeClipboardText(op.text);
        return null;
    }
  };
}
