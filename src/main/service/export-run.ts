import fs from 'node:fs/promises';
import path from 'node:path';
import type { CommandInput, CommandOutput } from '../../shared/bridge.js';
import { runDir } from '../sessions/history.js';
import { mediaTypeOf } from '../sessions/files.js';

/**
 * Writes a run's trajectory (replay's exportTrajectory). Given by a host that ships OCR
 * (`deskpilot serve`): deriving a trajectory reads the text under each point, and the
 * desktop app ships no Tesseract (~58 MB, issue 27.13), so its main process must not reach
 * that code at all — not even by a dynamic import.
 */
export type TrajectoryExporter = (runDir: string, outDir: string) => Promise<{ files: number }>;

/**
 * `sessions.export` (issue 34 item 6): the same exports `deskpilot sessions export`
 * writes, through the same functions (sessions/export's exportRun, replay's
 * exportTrajectory), into <home>/exports/<runId>/. A single file (HTML report, animated
 * WebP) is also sent back whole so the page can save it where the person wants; a
 * folder (Markdown beside its images, a trajectory) is named by its path.
 */
export async function exportForBridge(
  home: string,
  input: CommandInput<'sessions.export'>,
  exportTrajectory: TrajectoryExporter | undefined,
): Promise<CommandOutput<'sessions.export'>> {
  const dir = runDir(home, input.runId);
  const outDir = path.join(home, 'exports', input.runId);
  switch (input.format) {
    case 'trajectory': {
      if (!exportTrajectory) {
        throw new Error(`this app does not export trajectories (they need OCR, which the desktop app does not ship): run \`deskpilot sessions export ${input.runId} --format trajectory\``);
      }
      const target = path.join(outDir, `${input.runId}.trajectory`);
      const result = await exportTrajectory(dir, target);
      return { kind: 'folder', path: target, files: result.files };
    }
    case 'md': {
      const { exportRun } = await import('../sessions/export/index.js');
      const file = path.join(outDir, `${input.runId}.md`);
      await exportRun(dir, 'md', file);
      return { kind: 'folder', path: file, files: (await fs.readdir(outDir)).length };
    }
    case 'html':
    case 'animation': {
      const { exportRun } = await import('../sessions/export/index.js');
      const name = `${input.runId}.${input.format === 'html' ? 'html' : 'webp'}`;
      const file = path.join(outDir, name);
      await exportRun(dir, input.format, file);
      const data = await fs.readFile(file);
      return { kind: 'file', name, mediaType: input.format === 'html' ? 'text/html' : mediaTypeOf(file), dataBase64: data.toString('base64') };
    }
  }
}
