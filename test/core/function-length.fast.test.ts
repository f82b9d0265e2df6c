import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceTree } from './display-starters.js';
import { isHandWritten, longFunctions, MAX_FUNCTION_LINES, type LongFunction } from './long-functions.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * Long functions neither split nor explained yet, by file and name: the eval runner's
 * (another engineer's uncommitted edits when the rule came in) and four of the factories
 * issue 29 item 4 asks to split (the bridge service by area, the computer into frame
 * lifecycle and a performer queue, the settings form into its sections, the approval card
 * into its parts). Split since: the ACP agent's two (acp/run-updates.ts), runInTerminal
 * (its dialogue in cli/terminal-approval.ts) and createBridgeService (service/: pushes,
 * the active run, run.start, settings and past runs each in a file), runEvalFromCli (its
 * tasks, columns and out-dir steps in cli/eval-tasks.ts, eval-columns.ts, eval-out-dir.ts) and
 * createComputer (os-control/computer/: frames held between calls, observe, settle, typing,
 * the action queue) and ApprovalQueue (its state and shortcuts in approval-card-state.ts,
 * its parts in ApprovalFacts, ApprovalEditFields and ApprovalShot).
 * The list only shrinks: an entry fails once
 * its function is short or explained.
 */
const PENDING: ReadonlySet<string> = new Set([
  'src/renderer/components/Settings.tsx Settings',
]);

describe('no hand-written function over 120 lines without a reason (issue 29 item 4)', () => {
  const found = sourceTree(ROOT, 'src')
    .filter((f) => isHandWritten(f.file))
    .flatMap(longFunctions);

  it('every function in src/ over 120 lines has a comment saying why', () => {
    const unexplained = found.filter((f) => !f.excused);
    const named = (f: LongFunction) => `${f.file} ${f.name}`;
    expect(unexplained.filter((f) => !PENDING.has(named(f))).map((f) => `${f.file}:${f.line} ${f.name} (${f.lines} lines)`)).toEqual([]);
    // Each pending entry is still long and unexplained: split it or explain it, then drop it here.
    expect([...new Set(unexplained.filter((f) => PENDING.has(named(f))).map(named))].sort()).toEqual([...PENDING].sort());
  });

  it('sees the long functions that are there (a rule that finds none cannot fail)', () => {
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((f) => f.lines > MAX_FUNCTION_LINES)).toBe(true);
  });
});

describe('how a long function is measured and excused', () => {
  const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');
  // A function of `lines` lines: its header line, the body, its closing brace.
  const fn = (lines: number, before = '') => `${before}export function big() {\n${body(lines - 2)}\n}\n`;
  const check = (text: string, file = 'src/x.ts') => longFunctions({ file, text });

  it('120 lines pass; 121 lines are flagged with their name, line and length', () => {
    expect(check(fn(120))).toEqual([]);
    expect(check(`\n${fn(121)}`)).toEqual([{ file: 'src/x.ts', line: 2, lines: 121, name: 'big', excused: false }]);
  });

  it('a comment before it saying why excuses it; a bare marker or an unrelated comment does not', () => {
    expect(check(fn(121, '/** Over 120 lines because one closure holds the whole form state. */\n'))[0]?.excused).toBe(true);
    expect(check(fn(121, '// Over 120 lines because\n'))[0]?.excused).toBe(false);
    expect(check(fn(121, '/** Builds the thing. */\n'))[0]?.excused).toBe(false);
  });

  it('arrows and methods count, named by what holds them; a reason on the holder covers what it holds', () => {
    const arrow = `const handler = () => {\n${body(125)}\n};\n`;
    expect(check(arrow).map((f) => f.name)).toEqual(['handler']);
    const method = `class A {\n  run() {\n${body(125)}\n  }\n}\n`;
    expect(check(method).map((f) => f.name)).toEqual(['run']);
    const nested = `// Over 120 lines because the store's actions share one set/get pair.\nexport const store = create(() => ({\n  go: () => {\n${body(125)}\n  },\n}));\n`;
    expect(check(nested).map((f) => [f.name, f.excused])).toEqual([
      ['(anonymous)', true],
      ['go', true],
    ]);
  });

  it('tsx components are read as tsx', () => {
    const component = `export function Card() {\n  return (\n    <div>\n${Array.from({ length: 125 }, () => '      <p>line</p>').join('\n')}\n    </div>\n  );\n}\n`;
    expect(check(component, 'src/Card.tsx')).toMatchObject([{ name: 'Card', lines: 131 }]);
  });

  it('generated and declaration files are not hand-written', () => {
    expect(['src/a.generated.ts', 'src/b.d.ts', 'src/c.ts', 'src/d.tsx'].filter(isHandWritten)).toEqual(['src/c.ts', 'src/d.tsx']);
  });
});
