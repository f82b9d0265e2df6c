import { ESLint } from 'eslint';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LAYERS } from '../../eslint-rules/layers.js';

// The layer rule, run through the project's real ESLint config: for every pair of
// layers, an import from a file of one into a file of the other is an error exactly
// when the table does not allow it.
const root = path.resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: root });

/** A representative file inside each layer (the folder need not contain it). */
function fileIn(layerPath: string): string {
  return layerPath.endsWith('/') ? `${layerPath}probe-file.ts` : layerPath;
}

async function layerErrors(fromFile: string, toFile: string): Promise<string[]> {
  let spec = path.posix.relative(path.posix.dirname(fromFile), toFile).replace(/\.ts$/, '.js');
  if (!spec.startsWith('.')) spec = `./${spec}`;
  const [result] = await eslint.lintText(`import { thing } from '${spec}';\nexport const used = thing;\n`, { filePath: path.join(root, fromFile) });
  return result!.messages.filter((m) => m.ruleId === 'deskpilot/layers').map((m) => m.message);
}

describe('layer rule (eslint-rules/layers.js)', () => {
  it('allows exactly what the table allows, for every pair of layers', async () => {
    const wrong: string[] = [];
    for (const from of LAYERS) {
      for (const to of LAYERS) {
        const errors = await layerErrors(fileIn(from.paths[0]!), fileIn(to.paths[0]!));
        const allowed = from.name === to.name || from.may.includes(to.name);
        if (allowed !== (errors.length === 0)) wrong.push(`${from.name} → ${to.name}: ${allowed ? 'allowed but reported' : 'upward but not reported'}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('names both layers and the table in the message', async () => {
    const [message] = await layerErrors('src/main/sessions/scrub.ts', 'src/main/agent/supervision/risk-rules.ts');
    expect(message).toContain("Layer 'sessions' may not import from layer 'agent'");
    expect(message).toContain('eslint-rules/layers.js');
  });

  it('the renderer and os-control may use shared only', () => {
    const may = (name: string) => LAYERS.find((l) => l.name === name)!.may;
    expect(may('renderer')).toEqual(['shared']);
    expect(may('os-control')).toEqual(['shared']);
    expect(may('shared')).toEqual([]);
  });
});
