/**
 * Exact Unicode typing. Characters the keyboard layout can type become key strokes
 * (fast, in-process); every other run of characters (accents not on the layout, CJK,
 * emoji) is pasted through the clipboard. Work is done in small chunks with a trip to
 * the event loop between them, so an abort lands within one chunk.
 */
import { sleep, throwIfAborted, yieldToEventLoop } from '../shared/abort.js';
import type { Devices } from './devices.js';
import type { CharMap, Stroke } from './keymap.js';
import { resolveKey } from './keys.js';

export interface TypeOptions {
  signal?: AbortSignal;
  charMap: CharMap;
  /** Pastes one run of text that has no key strokes. */
  paste: (text: string, signal?: AbortSignal) => Promise<void>;
  /** Key strokes between abort checks. */
  chunk?: number;
  /**
   * Average time per key stroke. Injected events arrive as fast as XTest can take them;
   * an application that falls behind by thousands of events drops or stalls (Chromium
   * does), so strokes are paced.
   */
  strokeIntervalMs?: number;
}

type Run = { kind: 'keys'; strokes: Stroke[] } | { kind: 'paste'; text: string };

/** Splits text into runs of key strokes and runs to paste (by code point, so emoji stay whole). */
export function planTyping(text: string, charMap: CharMap): Run[] {
  const runs: Run[] = [];
  // Windows line ends from a model are one Enter each, not Enter plus a pasted carriage return.
  for (const ch of text.replace(/\r\n?/g, '\n')) {
    const stroke = ch.length === 1 ? charMap.strokeFor(ch) : undefined;
    const last = runs[runs.length - 1];
    if (stroke) {
      if (last?.kind === 'keys') last.strokes.push(stroke);
      else runs.push({ kind: 'keys', strokes: [stroke] });
    } else if (last?.kind === 'paste') {
      last.text += ch;
    } else {
      runs.push({ kind: 'paste', text: ch });
    }
  }
  return runs;
}

const SHIFT = resolveKey('Shift_L');
export const DEFAULT_STROKE_INTERVAL_MS = 1;

export async function typeText(devices: Devices, text: string, options: TypeOptions): Promise<void> {
  const chunk = options.chunk ?? 16;
  const interval = options.strokeIntervalMs ?? DEFAULT_STROKE_INTERVAL_MS;
  const runs = planTyping(text, options.charMap);
  let shiftHeld = false;
  let sinceYield = 0;
  let strokes = 0;
  let paceStart = performance.now();
  try {
    for (const run of runs) {
      throwIfAborted(options.signal);
      if (run.kind === 'paste') {
        if (shiftHeld) {
          await devices.keyUp(SHIFT);
          shiftHeld = false;
        }
        await options.paste(run.text, options.signal);
        strokes = 0;
        paceStart = performance.now();
        continue;
      }
      for (const stroke of run.strokes) {
        if (stroke.shift !== shiftHeld) {
          if (stroke.shift) await devices.keyDown(SHIFT);
          else await devices.keyUp(SHIFT);
          shiftHeld = stroke.shift;
        }
        await devices.tap(stroke.key);
        strokes++;
        if (++sinceYield >= chunk) {
          sinceYield = 0;
          const ahead = paceStart + strokes * interval - performance.now();
          if (ahead >= 1) await sleep(ahead, options.signal);
          else await yieldToEventLoop();
          throwIfAborted(options.signal);
        }
      }
    }
  } finally {
    if (shiftHeld) await devices.keyUp(SHIFT);
  }
}
