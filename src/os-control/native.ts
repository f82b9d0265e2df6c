/**
 * nut.js, loaded on first use. nut.js (libnut) opens the X display named by
 * process.env.DISPLAY the first time it is used, and keeps it for the life of the
 * process, so nothing here is imported at module load time.
 */
import type * as NutModule from '@nut-tree-fork/nut-js';
import { missingDisplay } from './display-env.js';

export type Nut = typeof NutModule;

let loading: Promise<Nut> | undefined;

export function loadNut(): Promise<Nut> {
  // libnut aborts the whole process (SIGSEGV) when there is no X display to open:
  // refuse with a clear error instead, every caller (CLI, serve, app) alike.
  const noDisplay = missingDisplay();
  if (noDisplay) return Promise.reject(new Error(noDisplay));
  loading ??= import('@nut-tree-fork/nut-js').then((m) => {
    // CommonJS interop: the namespace may carry the exports directly or under default.
    const mod = (m as unknown as { default?: Nut }).default?.providerRegistry ? (m as unknown as { default: Nut }).default : m;
    return mod as Nut;
  });
  return loading;
}

/** Pixel rows/values of one nut.js grab. */
export interface NutGrab {
  data: Buffer;
  width: number;
  height: number;
  channels: number;
  byteWidth: number;
  /** nut.js ColorMode: 0 = BGR, 1 = RGB. */
  colorMode: number;
  pixelDensity: { scaleX: number; scaleY: number };
}
