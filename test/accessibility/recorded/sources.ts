/**
 * The recorded trees in ../fixtures/recorded/ (sources.json says where each came from),
 * each turned into the JSON text our dump scripts print, ready for uiaDumpToTree /
 * axDumpToTree.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { assertNever } from '../../../src/shared/assert-never.js';
import { parseChromiumDump } from './chromium-dump.js';
import { closeElidedJson, chromiumToAxWindows, MacapptreeNodeSchema, macapptreeToAxWindow } from './to-ax.js';
import { chromiumToUiaWindows, UfoNodeSchema, ufoToUiaWindow } from './to-uia.js';

export const RECORDED_DIR = path.join(import.meta.dirname, '..', 'fixtures', 'recorded');

const SourceSchema = z.object({
  file: z.string(),
  api: z.enum(['uia', 'ax']),
  format: z.enum(['chromium-controltype', 'chromium-ariarole', 'chromium-mac', 'ufo-ui-tree', 'macapptree']),
  repo: z.string().regex(/^[\w.-]+\/[\w.-]+$/),
  path: z.string(),
  commit: z.string().regex(/^[0-9a-f]{40}$/),
  license: z.enum(['BSD-3-Clause', 'MIT']),
  shows: z.string(),
});
export type RecordedSource = z.infer<typeof SourceSchema>;

export const RECORDED_SOURCES: readonly RecordedSource[] = z
  .object({ about: z.string(), files: z.array(SourceSchema) })
  .parse(JSON.parse(readFileSync(path.join(RECORDED_DIR, 'sources.json'), 'utf8'))).files;

/** The recording as stored (byte for byte what the source published). */
export function recordedText(file: string): string {
  return readFileSync(path.join(RECORDED_DIR, file), 'utf8');
}

function source(file: string): RecordedSource {
  const s = RECORDED_SOURCES.find((x) => x.file === file);
  if (!s) throw new Error(`${file} is not listed in sources.json`);
  return s;
}

/** The recording as the JSON text our dump script for its API would print for a window of `app`. */
export function recordedDump(file: string, app: string): string {
  const s = source(file);
  const text = recordedText(file);
  switch (s.format) {
    case 'chromium-controltype':
    case 'chromium-ariarole':
      return JSON.stringify(chromiumToUiaWindows(parseChromiumDump(text), s.format, app));
    case 'chromium-mac':
      return JSON.stringify(chromiumToAxWindows(parseChromiumDump(text), app));
    case 'ufo-ui-tree':
      return JSON.stringify([ufoToUiaWindow(UfoNodeSchema.parse(JSON.parse(text)), app)]);
    case 'macapptree':
      return JSON.stringify([macapptreeToAxWindow(MacapptreeNodeSchema.parse(JSON.parse(closeElidedJson(text))), app)]);
    default:
      return assertNever(s.format, 'recorded tree format');
  }
}
