/**
 * A code block's OCR lookups where no OCR engine ships (the desktop app: tesseract.js,
 * ~58 MB, is never loaded by its main process — c13-electron-shell): click("text") looks
 * in the element tree only and says OCR is not here, find_text refuses with a reason, and
 * the screen is never read for OCR. Where the CLI installed its engine, both use it.
 */
import { describe, expect, it } from 'vitest';
import { blockLookups } from '../../../src/main/agent/harness/code/lookups.js';
import { blockOcr, installBlockOcr, type BlockOcr } from '../../../src/main/agent/harness/code/block-ocr.js';
import type { Computer } from '../../../src/os-control/types.js';
import type { ObservationRecord } from '../../../src/shared/observation.js';

const never = new AbortController().signal;
/** A desktop with no accessibility tree whose screen must not be read (observe throws). */
function treeless(): { computer: Computer; observed: () => number } {
  let observed = 0;
  const computer = {
    elementTree: async () => ({ kind: 'none', reason: 'no-bus', detail: 'no accessibility bus' }),
    observe: async () => {
      observed++;
      throw new Error('the screen was read');
    },
    listDisplays: async () => [],
  } as unknown as Computer;
  return { computer, observed: () => observed };
}
const record = { display: { id: 'd1' } } as unknown as ObservationRecord;

describe('a code block without an OCR engine', () => {
  it('click("Save"): the tree only, the answer says OCR is not on this surface, the screen is not read for OCR', async () => {
    const { computer, observed } = treeless();
    const found = await blockLookups(computer, record, undefined).pointOf('Save', never);
    expect(found.ok).toBe(false);
    if (found.ok) return;
    expect(found.error).toContain('ocr: no OCR engine on this surface (the desktop app ships none)');
    expect(observed()).toBe(0);
  });

  it('find_text refuses with the reason and the way on', async () => {
    const { computer } = treeless();
    await expect(blockLookups(computer, record, undefined).look({ what: 'find_text', text: 'Save' }, never)).rejects.toThrow(
      'computer.screen.find_text: no OCR engine on this surface (the desktop app ships none); use computer.elements.find',
    );
  });

  it('with an engine installed, find_text and click use it', async () => {
    const { computer } = treeless();
    const seen: string[] = [];
    const ocr: BlockOcr = {
      readWords: async () => {
        seen.push('readWords');
        return [];
      },
      textOnScreen: async (_c, _m, input) => {
        seen.push(`textOnScreen ${input.text}`);
        return [{ text: input.text, x: 1, y: 2, score: 1 }];
      },
    };
    const before = blockOcr();
    installBlockOcr(ocr);
    expect(blockOcr()).toBe(ocr);
    if (before) installBlockOcr(before);
    await expect(blockLookups(computer, record, ocr).look({ what: 'find_text', text: 'Save' }, never)).resolves.toEqual([{ text: 'Save', x: 1, y: 2, score: 1 }]);
    expect(seen).toEqual(['textOnScreen Save']);
  });
});
