import { ESLint } from 'eslint';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The front door (issue 29 item 1), through the project's real ESLint config: outside
// src/main/agent/ a run starts with launchRun from agent/index.ts; the runner's own files
// are refused, static and dynamic imports alike.
const root = path.resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: root });

async function doorErrors(fromFile: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, fromFile) });
  return result!.messages.filter((m) => m.ruleId === 'deskpilot/front-door').map((m) => m.message);
}

describe('front door rule (eslint-rules/layers.js)', () => {
  it.each([
    ['src/main/acp/probe.ts', "import { startRun } from '../agent/runner.js';\nexport const s = startRun;\n"],
    ['src/main/service/probe.ts', "import { createDefaultDeps } from '../agent/runner/deps.js';\nexport const d = createDefaultDeps;\n"],
    ['src/main/cli/probe.ts', "export const load = () => import('../agent/runner/start-run.js');\n"],
    ['src/main/mcp-server/probe.ts', "export { startRunWith } from '../agent/runner.js';\n"],
    ['src/main/qa/probe.ts', "import type { RunDeps } from '../agent/runner/context.js';\nexport type D = RunDeps;\n"],
  ])('refuses the runner from %s', async (file, code) => {
    const errors = await doorErrors(file, code);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('src/main/agent/index.ts');
  });

  it.each([
    ['src/main/agent/replay/probe.ts', "import { startRunWith } from '../runner/start-run.js';\nexport const s = startRunWith;\n"],
    ['src/main/agent/record/probe.ts', "import { readActionTarget } from '../runner/target.js';\nexport const r = readActionTarget;\n"],
    ['src/main/agent/grounding/probe.ts', "import type { RunContext } from '../runner/context.js';\nexport type C = RunContext;\n"],
    ['src/main/agent/harness/code/probe.ts', "export const load = () => import('../../runner/deps.js');\n"],
  ])('refuses the runner’s files to the agent’s other rooms: %s', async (file, code) => {
    const errors = await doorErrors(file, code);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('a file below both');
  });

  it('lets a surface use the door, and the door and the runner the runner’s files', async () => {
    expect(await doorErrors('src/main/acp/probe.ts', "import { launchRun } from '../agent/index.js';\nexport const l = launchRun;\n")).toEqual([]);
    expect(await doorErrors('src/main/agent/index.ts', "export const load = () => import('./runner/start-run.js');\n")).toEqual([]);
    expect(await doorErrors('src/main/agent/runner/probe.ts', "import { createDefaultDeps } from './deps.js';\nexport const d = createDefaultDeps;\n")).toEqual([]);
    // Other rooms of the agent stay open to the layers above it (the layer table decides those).
    expect(await doorErrors('src/main/service/probe.ts', "import { listSkills } from '../agent/skills/index.js';\nexport const l = listSkills;\n")).toEqual([]);
  });

});
