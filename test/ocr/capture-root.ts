import { spawnSync } from 'node:child_process';
import type { Xvfb } from '../harness/xvfb.js';

/** The whole X screen as PNG, taken by ImageMagick's `import` (an independent capture path). */
export function captureRoot(xvfb: Xvfb): Buffer {
  const r = spawnSync('import', ['-window', 'root', 'png:-'], { env: xvfb.env, maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`import failed: ${r.stderr.toString()}`);
  return r.stdout;
}
