import path from 'node:path';
import { TRAJECTORY_FILE, type Trajectory } from '../../../shared/trajectory.js';
import { mkdirPrivate, writePrivateFile } from '../../private-files.js';
import { readFileInRun } from '../../sessions/files.js';
import type { ExportOptions } from '../../sessions/export/index.js';
import { trajectoryOfRun } from './derive.js';

/** Every file a trajectory names (screens before/after, patches, the final screen), once each. */
export function trajectoryFiles(trajectory: Trajectory): string[] {
  const files = new Set<string>();
  for (const step of trajectory.steps) {
    files.add(step.before.image);
    if (step.after) files.add(step.after.image);
    for (const { target } of step.actions) if (target?.patch) files.add(target.patch.image);
  }
  if (trajectory.final) files.add(trajectory.final.image);
  return [...files];
}

/**
 * `deskpilot sessions export --format trajectory`: the run's trajectory as a folder that
 * replays on its own (`deskpilot replay --file <folder>/trajectory.json`): trajectory.json
 * and the screenshots and patches it names, at the same relative paths.
 */
export async function exportTrajectory(runDir: string, outDir: string, options: ExportOptions = {}): Promise<{ file: string; files: number }> {
  const trajectory = await trajectoryOfRun(runDir);
  const names = trajectoryFiles(trajectory);
  for (const name of names) {
    const dest = path.join(outDir, ...name.split('/'));
    await mkdirPrivate(path.dirname(dest));
    const data = await readFileInRun(runDir, name);
    // --redact: screens and patches alike (a patch is cut from a screen). A replay of such a
    // folder may diverge where a word was filled: the screen then shows it.
    await writePrivateFile(dest, options.redactImage ? await options.redactImage(data, name) : data);
  }
  await mkdirPrivate(outDir);
  const file = path.join(outDir, TRAJECTORY_FILE);
  await writePrivateFile(file, `${JSON.stringify(trajectory, null, 2)}\n`);
  return { file, files: names.length + 1 };
}
