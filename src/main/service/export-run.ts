import fs from 'node:fs/promises';
import path from 'node:path';
import type { CommandInput, CommandOutput } from '../../shared/bridge.js';
import type { ExportOptions } from '../sessions/export/index.js';
import { runDir } from '../sessions/history.js';
import { mediaTypeOf } from '../sessions/files.js';

/**
 * Writes a run's trajectory (replay's exportTrajectory). Given by a host that ships OCR
 * (`deskpilot serve`): deriving a trajectory reads the text under each point, and the
 * desktop app ships no Tesseract (~58 MB, issue 27.13), so its main process must not reach
 * that code at all — not even by a dynamic import.
 */
export type TrajectoryExporter = (runDir: string, outDir: string, options?: ExportOptions) => Promise<{ files: number }>;

/**
 * `sessions export --redact`'s filter (agent/ocr-redact.ts redactSecretWords): a
 * screenshot with the words OCR reads as secrets filled, and how many were. Given by a
 * host that ships OCR, for the same reason as the trajectory exporter.
 */
export type ImageRedactor = (image: Buffer) => Promise<{ image: Buffer; words: number }>;

/** The export's options for a `redact` request, and the count of words filled once it has run. */
function redaction(input: CommandInput<'sessions.export'>, redactImage: ImageRedactor | undefined): { options: ExportOptions; words: () => number | undefined } {
  if (!input.redact) return { options: {}, words: () => undefined };
  if (!redactImage) {
    throw new Error(`this app does not redact words in screenshots (it needs OCR, which the desktop app does not ship): run \`deskpilot sessions export ${input.runId} --redact\`; password fields are filled in every export`);
  }
  let words = 0;
  return {
    options: {
      redactImage: async (image) => {
        const result = await redactImage(image);
        words += result.words;
        return result.image;
      },
    },
    words: () => words,
  };
}

/**
 * `sessions.export` (issue 34 item 6): the same exports `deskpilot sessions export`
 * writes, through the same functions (sessions/export's exportRun, replay's
 * exportTrajectory), into <home>/exports/<runId>/. A single file (HTML report, animated
 * WebP) is also sent back whole so the page can save it where the person wants; a
 * folder (Markdown beside its images, a trajectory) is named by its path. With `redact`
 * every screenshot written passes through the host's redactor (the CLI's --redact) and
 * the answer says how many words were filled; a host without one refuses it.
 */
export async function exportForBridge(
  home: string,
  input: CommandInput<'sessions.export'>,
  exportTrajectory: TrajectoryExporter | undefined,
  redactImage?: ImageRedactor,
): Promise<CommandOutput<'sessions.export'>> {
  // Refused before anything is written when this host cannot redact.
  const redacting = redaction(input, redactImage);
  const dir = runDir(home, input.runId);
  const outDir = path.join(home, 'exports', input.runId);
  const { options } = redacting;
  const counted = () => {
    const words = redacting.words();
    return words === undefined ? {} : { redactedWords: words };
  };
  switch (input.format) {
    case 'trajectory': {
      if (!exportTrajectory) {
        throw new Error(`this app does not export trajectories (they need OCR, which the desktop app does not ship): run \`deskpilot sessions export ${input.runId} --format trajectory\``);
      }
      const target = path.join(outDir, `${input.runId}.trajectory`);
      const result = await exportTrajectory(dir, target, options);
      return { kind: 'folder', path: target, files: result.files, ...counted() };
    }
    case 'md': {
      const { exportRun } = await import('../sessions/export/index.js');
      const file = path.join(outDir, `${input.runId}.md`);
      await exportRun(dir, 'md', file, options);
      return { kind: 'folder', path: file, files: (await fs.readdir(outDir)).length, ...counted() };
    }
    case 'html':
    case 'animation': {
      const { exportRun } = await import('../sessions/export/index.js');
      const name = `${input.runId}.${input.format === 'html' ? 'html' : 'webp'}`;
      const file = path.join(outDir, name);
      await exportRun(dir, input.format, file, options);
      const data = await fs.readFile(file);
      return { kind: 'file', name, mediaType: input.format === 'html' ? 'text/html' : mediaTypeOf(file), dataBase64: data.toString('base64'), ...counted() };
    }
  }
}
