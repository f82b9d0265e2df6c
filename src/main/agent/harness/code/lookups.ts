import { globalToImage } from '../../../../os-control/coords.js';
import type { Computer } from '../../../../os-control/types.js';
import type { Point } from '../../../../shared/actions.js';
import type { ObservationRecord } from '../../../../shared/observation.js';
import { resolveTarget } from '../../resolve/chain.js';
import type { Candidate } from '../../resolve/types.js';
import type { BlockOcr } from './block-ocr.js';
import type { Lookup } from './computer-api.js';
import { elementValues, screenText, type ScreenText } from './screen-text.js';

/**
 * What a block's computer calls look up, in the pixels of the screenshot the model has
 * (the coordinate space of every call): `mouse.click(text=…)`'s point, found by the
 * resolve chain's tree then OCR stages (agent/resolve: one clear answer, or the
 * candidates named — never a guess between two), and the lookups
 * `computer.screen.find_text`, `computer.elements.find` and `.tree()` — the find_text and
 * find_element tools' own readers (agent/tools), as plain values for the code. Looking
 * acts on nothing, so none of these passes the gate; the click found does, as any click.
 */
export interface BlockLookups {
  pointOf(text: string, signal: AbortSignal): Promise<{ ok: true; point: Point } | { ok: false; error: string }>;
  look(lookup: Lookup, signal: AbortSignal): Promise<unknown>;
  /** A text-only model's `computer.display.view()`: the screen as the element list and OCR lines (screen-text.ts). */
  screenText(signal: AbortSignal): Promise<ScreenText>;
}

/** Candidates named in an error (the model picks by place or a nearby label). */
const NAMED = 5;

export function blockLookups(computer: Computer, model: ObservationRecord, ocr: BlockOcr | undefined): BlockLookups {
  const inModel = (p: Point) => {
    const at = globalToImage(p, model);
    return at ? { x: Math.round(at.x), y: Math.round(at.y) } : undefined;
  };
  const named = (candidates: Candidate[]) =>
    candidates
      .slice(0, NAMED)
      .map((c) => {
        const at = inModel(c.point);
        return `${c.label}${at ? ` at x=${at.x}, y=${at.y}` : ' (off the screenshot)'}`;
      })
      .join('; ');
  return {
    async pointOf(text, signal) {
      // Tree, then OCR: no grounding model inside a block (a call must answer in its own time).
      const found = await resolveTarget(text, { computer, displayId: model.display.id, stages: ['tree', 'ocr'], ...(ocr ? { readWords: ocr.readWords } : {}) }, signal);
      switch (found.kind) {
        case 'found': {
          const at = inModel(found.point);
          if (!at) return { ok: false, error: `computer.mouse.click: ${JSON.stringify(text)} was found (${found.label}) outside the screenshot you have; nothing was done` };
          return { ok: true, point: at };
        }
        case 'ambiguous':
          return { ok: false, error: `computer.mouse.click: ${JSON.stringify(text)} is ambiguous: ${named(found.candidates)}; click one by its x and y; nothing was done` };
        case 'not-found': {
          const close = found.candidates.length ? `; the closest: ${named(found.candidates)}` : '';
          return { ok: false, error: `computer.mouse.click: ${JSON.stringify(text)} was not found by the element tree or OCR (${found.notes.map((n) => `${n.stage}: ${n.note}`).join('; ')})${close}; nothing was done` };
        }
      }
    },
    screenText: (signal) => screenText(computer, model, ocr, signal),
    async look(lookup, signal) {
      switch (lookup.what) {
        case 'find_text':
          if (!ocr) throw new Error('computer.screen.find_text: no OCR engine on this surface (the desktop app ships none); use computer.elements.find');
          return ocr.textOnScreen(computer, model, { text: lookup.text }, signal);
        case 'tree':
        case 'elements': {
          // tree(): every visible element of the focused window, in tree order, as many as element_tree shows (TREE_ELEMENTS).
          const { what: _what, ...filter } = lookup;
          const found = await elementValues(computer, model, lookup.what === 'tree' ? undefined : filter);
          if ('none' in found) throw new Error(`computer.elements: the focused window has no accessibility tree (${found.none}); use computer.screen.find_text`);
          return found.elements;
        }
      }
    },
  };
}
