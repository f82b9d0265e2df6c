import sharp from 'sharp';
import type { ObservationRecord } from '../../src/shared/observation.js';
import type { TranscriptImage } from '../../src/main/agent/transcript.js';
import { BUILTIN_TOOL_SPECS, type BuiltinToolName } from '../../src/main/agent/providers/builtin-tools.js';
import type { ToolSpec } from '../../src/main/agent/providers/tool-spec.js';

/** A screenshot record as the runner makes it: a 2560×1600 display sent at `width`×`height`. */
export function observation(width: number, height: number, cursor?: { x: number; y: number }): ObservationRecord {
  return {
    id: `obs-${width}x${height}`,
    takenAt: Date.now(),
    display: { id: '0', name: 'test', bounds: { x: 0, y: 0, width: 2560, height: 1600 }, scaleFactor: 1, primary: true },
    capture: { width: 2560, height: 1600 },
    region: { x: 0, y: 0, width: 2560, height: 1600 },
    image: { width, height, format: 'jpeg' },
    ...(cursor ? { cursor } : {}),
  };
}

/** A real JPEG of the given size, loaded lazily like the runner's screenshots on disk. */
export function image(width: number, height: number, id = `img-${width}x${height}`): TranscriptImage {
  return {
    observationId: id,
    mediaType: 'image/jpeg',
    width,
    height,
    load: () => sharp({ create: { width, height, channels: 3, background: { r: 40, g: 90, b: 200 } } }).jpeg().toBuffer(),
  };
}

export const FAST_RETRY = { maxAttempts: 4, baseDelayMs: 5, maxDelayMs: 20 };
export const signal = () => new AbortController().signal;

/** The wire specs of the named built-in tools, as the runner offers them. */
export function builtinTools(...names: BuiltinToolName[]): ToolSpec[] {
  return names.map((name) => BUILTIN_TOOL_SPECS.find((t) => t.name === name)!);
}
