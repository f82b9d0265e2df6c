import path from 'node:path';
import { EVENT_SCHEMA_VERSION } from '../../../shared/events.js';
import { mkdirPrivate, writePrivateFile } from '../../private-files.js';
import { readFileInRun } from '../files.js';
import { readRunLog } from '../reader.js';
import { renderHtmlReportFor } from './html.js';
import { renderMarkdown } from './markdown.js';
import { renderAnimation } from './animation.js';
import { buildRunView, type RunView } from './timeline.js';
import type { ExportFormat } from './formats.js';
import type { ReadRunImage } from './common.js';

export { OVERLAY_COLOR, OVERLAY_RGB, overlayElements, overlaySvg } from './overlay.js';
export { REPORT_CSS, REPORT_CSP, escapeHtml, renderHtmlReport, renderHtmlReportFor, renderReportDocument, renderRunSection, renderRunSectionFromDir } from './html.js';
export { renderMarkdown } from './markdown.js';
export { renderAnimation } from './animation.js';
export { buildRunView, type RunView, type StepView, type ActionView } from './timeline.js';
export { EXPORT_FORMATS, type ExportFormat } from './formats.js';

/** The folder a Markdown export's screenshots go to, next to it: "report.md" → "report-images". */
export function markdownImagesFolder(outFile: string): string {
  return `${path.basename(outFile, path.extname(outFile)) || 'run'}-images`;
}

/** Copies each step's screenshot (read inside the run folder only) to `target`, keeping its relative path. */
async function copyStepImages(view: RunView, target: string, readImage: ReadRunImage): Promise<void> {
  for (const step of view.steps) {
    const rel = step.observation?.image;
    if (!rel) continue;
    const data = await readImage(rel);
    const dest = path.join(target, ...rel.split('/'));
    await mkdirPrivate(path.dirname(dest));
    await writePrivateFile(dest, data);
  }
}


export interface ExportOptions {
  /**
   * `sessions export --redact`: each screenshot passes through this before it is written
   * (the CLI's: OCR words the secret detectors flag, filled). Without it screenshots are
   * exported as stored, their password fields already filled when they were written.
   */
  redactImage?: (image: Buffer, relativePath: string) => Promise<Buffer>;
}

/**
 * Exports a run folder to `outFile`. Everything is rendered from the log and the files
 * it names, so an export contains nothing the log does not (secrets were scrubbed when
 * the log was written, password fields filled in the screenshots when they were stored).
 */
export async function exportRun(dir: string, format: ExportFormat, outFile: string, options: ExportOptions = {}): Promise<{ outFile: string; bytes: number; warnings: string[] }> {
  const { events, warnings } = await readRunLog(dir);
  const view = buildRunView(events);
  const { redactImage } = options;
  const readImage: ReadRunImage = redactImage ? async (rel) => redactImage(await readFileInRun(dir, rel), rel) : (rel) => readFileInRun(dir, rel);
  let data: Buffer | string;
  switch (format) {
    case 'json':
      data = `${JSON.stringify({ format: 'deskpilot-run', schema: EVENT_SCHEMA_VERSION, runId: view.runId, summary: view.summary, events }, null, 2)}\n`;
      break;
    case 'md': {
      // Attachable: the screenshots are copied into a folder next to the file and linked
      // from there (report.md + report-images/), never linked into the data folder.
      const imagesName = markdownImagesFolder(outFile);
      await copyStepImages(view, path.join(path.dirname(path.resolve(outFile)), imagesName), readImage);
      data = renderMarkdown(view, { imageBase: imagesName });
      break;
    }
    case 'html':
      data = await renderHtmlReportFor(dir, view, { readImage });
      break;
    case 'webp':
    case 'gif':
      data = await renderAnimation(dir, view, { format, readImage });
      break;
    case 'animation':
      data = await renderAnimation(dir, view, { format: 'webp', readImage });
      break;
  }
  // An export holds the run's screenshots and text: private like the run it came from.
  await mkdirPrivate(path.dirname(path.resolve(outFile)));
  await writePrivateFile(outFile, data);
  return { outFile, bytes: typeof data === 'string' ? Buffer.byteLength(data) : data.length, warnings };
}
