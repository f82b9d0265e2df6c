/**
 * The grounding benches' scoring (bench/grounding.bench.ts on Chromium, grounding-gtk.bench.ts
 * on GTK apps): the resolvers each item is run through, how an answer is judged against the
 * truth box, and the table printed.
 */
import type { Rect } from '../../src/shared/actions.js';
import type { DesktopComputer } from '../../src/os-control/index.js';
import { resolveTarget, type ResolveDeps } from '../../src/main/agent/resolve/chain.js';
import { ocrWords } from '../../src/main/agent/resolve/ocr-words.js';
import type { Grounder } from '../../src/main/agent/resolve/grounder.js';
import type { Resolution, ResolveStage } from '../../src/main/agent/resolve/types.js';
import type { DescriptionKind } from './grounding-items.js';
import { median } from './stats.js';

export const RESOLVERS = ['tree', 'ocr', 'chain', 'model'] as const;
export type ResolverName = (typeof RESOLVERS)[number];
export const STAGES_OF: Readonly<Record<ResolverName, readonly ResolveStage[] | undefined>> = { tree: ['tree'], ocr: ['ocr'], chain: ['tree', 'ocr'], model: undefined };
const KINDS: readonly DescriptionKind[] = ['name', 'paraphrase', 'spatial'];

export interface Outcome {
  resolver: ResolverName;
  kind: DescriptionKind;
  result: 'hit' | 'wrong' | 'ambiguous' | 'not-found';
  stage?: ResolveStage;
  ms: number;
}

export function stringArg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}

/** The box, one pixel wider each side: the DOM's fractional box against a point the tree rounds. */
export function inside(p: { x: number; y: number }, r: Rect): boolean {
  return p.x >= r.x - 1 && p.x <= r.x + r.width + 1 && p.y >= r.y - 1 && p.y <= r.y + r.height + 1;
}

export function judge(r: Resolution, truth: Rect): Outcome['result'] {
  switch (r.kind) {
    case 'found':
      return inside(r.point, truth) ? 'hit' : 'wrong';
    case 'ambiguous':
      return 'ambiguous';
    case 'not-found':
      return 'not-found';
  }
}

export async function grounderOf(name: string | undefined): Promise<Grounder | undefined> {
  if (name === undefined) return undefined;
  const [{ loadConfig }, { deskpilotHome }, { configuredGrounder }] = await Promise.all([
    import('../../src/main/config/index.js'),
    import('../../src/main/paths.js'),
    import('../../src/main/agent/resolve/configured-grounder.js'),
  ]);
  return configuredGrounder(await loadConfig(deskpilotHome(process.env)), name);
}

function pct(n: number, of: number): string {
  return of ? `${((100 * n) / of).toFixed(1)}%` : '—';
}

export function report(outcomes: readonly Outcome[], grounderName: string | undefined): void {
  process.stdout.write(`\nresolver  kind         items  hit            wrong  ambiguous  not found  median ms (hits)\n`);
  for (const resolver of RESOLVERS) {
    const mine = outcomes.filter((o) => o.resolver === resolver);
    if (!mine.length) {
      process.stdout.write(`${resolver.padEnd(9)} (not run: ${resolver === 'model' ? 'no --grounder-profile given; a grounding model plugs in by profile' : 'no items'})\n`);
      continue;
    }
    for (const kind of [...KINDS, undefined]) {
      const rows = mine.filter((o) => !kind || o.kind === kind);
      const hits = rows.filter((o) => o.result === 'hit');
      const count = (r: Outcome['result']) => String(rows.filter((o) => o.result === r).length).padStart(5);
      process.stdout.write(
        `${resolver.padEnd(9)} ${(kind ?? 'all').padEnd(11)} ${String(rows.length).padStart(6)}  ${`${hits.length} (${pct(hits.length, rows.length)})`.padEnd(13)} ${count('wrong')}  ${count('ambiguous')}     ${count('not-found')}      ${median(hits.map((o) => o.ms)).toFixed(0).padStart(6)}\n`,
      );
    }
  }
  for (const resolver of ['chain', 'model'] as const) {
    const hits = outcomes.filter((o) => o.resolver === resolver && o.result === 'hit');
    const stages = [...new Set(hits.map((o) => o.stage))];
    if (stages.length) {
      process.stdout.write(`${resolver} hits by the stage that found them: ${stages.map((s) => `${s} ${hits.filter((o) => o.stage === s).length} (median ${median(hits.filter((o) => o.stage === s).map((o) => o.ms)).toFixed(0)} ms)`).join(', ')}\n`);
    }
  }
  if (grounderName) process.stdout.write(`model rows: grounding model of profile ${grounderName}\n`);
}


export interface ScoreOptions {
  computer: DesktopComputer;
  grounder?: Grounder;
  /** Run OCR alone on this item (the slow resolver: sampled on a busy machine). */
  withOcr: boolean;
  verbose: boolean;
}

/** One item through every resolver on the same screen, each answer judged against `truth`. */
export async function scoreItem(item: { kind: DescriptionKind; description: string }, truth: Rect, options: ScoreOptions, outcomes: Outcome[]): Promise<void> {
  const never = new AbortController().signal;
  for (const resolver of RESOLVERS) {
    if (resolver === 'model' && !options.grounder) continue;
    if (resolver === 'ocr' && !options.withOcr) continue;
    const stages = STAGES_OF[resolver];
    const deps: ResolveDeps = { computer: options.computer, readWords: ocrWords, ...(stages ? { stages } : {}), ...(resolver === 'model' && options.grounder ? { grounder: options.grounder } : {}) };
    const t = performance.now();
    const r = await resolveTarget(item.description, deps, never);
    const ms = performance.now() - t;
    const result = judge(r, truth);
    outcomes.push({ resolver, kind: item.kind, result, ...(r.kind === 'found' ? { stage: r.stage } : {}), ms });
    if (options.verbose && result !== 'hit') process.stdout.write(`  ${resolver} ${item.kind} "${item.description}": ${result}${r.kind === 'found' ? `, ${r.label}` : ''}\n`);
  }
}
