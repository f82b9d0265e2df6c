import type { Command } from 'commander';
import { missingDisplay } from '../../os-control/display-env.js';
import type { Resolution } from '../agent/resolve/types.js';
import { deskpilotHome } from '../paths.js';
import { EXIT } from './exit-codes.js';

/**
 * `deskpilot ground "<description>"` (issue 33 item 3): resolve a description on the
 * current screen through the target-resolution chain (agent/resolve: the accessibility
 * tree, OCR words, a grounding model with `--grounder-profile` and its zoomed second
 * look) and print each stage's answer — for people writing QA plans and skills, and for
 * finding out why a planner's target was missed. `--json`:
 *   {point: {x, y}, stage, confidence, element?: {role, name, bounds}, candidates: [{point, stage, confidence, label}], …}
 * in logical desktop pixels.
 *
 * Exit codes: 0 found; 1 not found or ambiguous (or the grounding model could not
 * answer); 2 usage errors (an empty or over-long description, an unknown profile in
 * --grounder-profile or config `grounderProfile`, a config file that cannot be read);
 * 6 no display.
 */
export function registerGroundCommand(program: Command): void {
  program
    .command('ground')
    .description('find a described target on the current screen (accessibility tree, OCR, a grounding model) and print where it is')
    .argument('<description>', 'the target in words, e.g. "the Save button in the dialog"')
    .option('--json', 'print JSON: {point, stage, confidence, element?, candidates, notes}')
    .option('--grounder-profile <name>', 'a profile of a grounding model (UI-TARS, Qwen-VL, any vision model) for targets the tree and OCR miss')
    .option('--display <id>', 'the display to look at (deskpilot displays); the primary one by default')
    .action(async (description: string, flags: GroundFlags) => {
      const code = await groundCommand(description, flags);
      // Native capture handles can keep Node alive after the answer.
      await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
      process.exit(code);
    });
}

export interface GroundFlags {
  json?: boolean;
  grounderProfile?: string;
  display?: string;
}

/** The JSON `deskpilot ground --json` prints (and the MCP tool answers): the issue's shape, plus `result` and the stages' notes. */
export function groundJson(r: Resolution): Record<string, unknown> {
  const candidates = r.candidates.map((c) => ({ point: roundPoint(c.point), stage: c.stage, confidence: round3(c.confidence), label: c.label }));
  if (r.kind !== 'found') return { result: r.kind, description: r.description, candidates, notes: r.notes };
  return {
    result: 'found',
    description: r.description,
    point: roundPoint(r.point),
    stage: r.stage,
    confidence: round3(r.confidence),
    ...(r.element ? { element: { role: r.element.role, name: r.element.name, bounds: r.element.bounds } } : {}),
    candidates,
    notes: r.notes,
  };
}

/** A person's reading of the same answer. */
export function groundText(r: Resolution): string {
  const lines: string[] = [];
  const at = (p: { x: number; y: number }) => `(${roundPoint(p).x}, ${roundPoint(p).y})`;
  switch (r.kind) {
    case 'found':
      lines.push(`found by ${r.stage} (confidence ${r.confidence.toFixed(2)}): ${r.label} at ${at(r.point)}`);
      break;
    case 'ambiguous':
      lines.push(`ambiguous: ${r.candidates.length} equally good matches — describe the one you mean by its place or a nearby label`);
      break;
    case 'not-found':
      lines.push(`not found: ${JSON.stringify(r.description)}`);
      break;
  }
  for (const c of r.candidates) lines.push(`  ${c.stage.padEnd(5)} ${c.confidence.toFixed(2)}  ${c.label} at ${at(c.point)}`);
  for (const n of r.notes) lines.push(`  ${n.stage}: ${n.note}`);
  return `${lines.join('\n')}\n`;
}

function roundPoint(p: { x: number; y: number }): { x: number; y: number } {
  return { x: Math.round(p.x * 10) / 10, y: Math.round(p.y * 10) / 10 };
}

function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}

export async function groundCommand(description: string, flags: GroundFlags, out: NodeJS.WritableStream = process.stdout, err: NodeJS.WritableStream = process.stderr, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [{ parseDescription }, { DescriptionError }] = await Promise.all([import('../agent/resolve/describe.js'), import('../agent/resolve/types.js')]);
  try {
    parseDescription(description);
  } catch (error) {
    if (!(error instanceof DescriptionError)) throw error;
    err.write(`deskpilot ground: ${error.message}\n`);
    return EXIT.usage;
  }
  // The config first: a grounderProfile it names wrongly is a usage error (2), before any screen is looked at.
  const [{ loadConfig, ConfigError }, { ProviderUnavailableError, ProviderRequestError, ProviderTimeoutError }, { configuredGrounder }] = await Promise.all([
    import('../config/index.js'),
    import('../agent/providers/index.js'),
    import('../agent/resolve/configured-grounder.js'),
  ]);
  let grounder;
  try {
    grounder = configuredGrounder(await loadConfig(deskpilotHome(env)), flags.grounderProfile);
  } catch (error) {
    if (!(error instanceof ConfigError) && !(error instanceof ProviderRequestError)) throw error;
    err.write(`deskpilot ground: ${flags.grounderProfile !== undefined ? '--grounder-profile: ' : ''}${error.message}\n`);
    return EXIT.usage;
  }
  const noDisplay = missingDisplay(env);
  if (noDisplay) {
    err.write(`deskpilot: ${noDisplay}\n`);
    return EXIT.environment;
  }
  const [{ resolveTarget }, { createComputer }, { terminateOcr }, { ocrWords }] = await Promise.all([
    import('../agent/resolve/chain.js'),
    import('../../os-control/index.js'),
    import('../../os-control/ocr/index.js'),
    import('../agent/resolve/ocr-words.js'),
  ]);
  const computer = createComputer();
  try {
    const r = await resolveTarget(description, { computer, readWords: ocrWords, ...(grounder ? { grounder } : {}), ...(flags.display ? { displayId: flags.display } : {}) }, new AbortController().signal);
    out.write(flags.json ? `${JSON.stringify(groundJson(r), null, 2)}\n` : groundText(r));
    return r.kind === 'found' ? EXIT.done : EXIT.failed;
  } catch (error) {
    if (error instanceof ProviderUnavailableError || error instanceof ProviderRequestError || error instanceof ProviderTimeoutError) {
      err.write(`deskpilot ground: the grounding model could not answer: ${error.message}\n`);
      return EXIT.failed;
    }
    throw error;
  } finally {
    await terminateOcr();
  }
}
