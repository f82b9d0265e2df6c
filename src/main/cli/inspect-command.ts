import type { Command } from 'commander';
import { missingDisplay } from '../../os-control/display-env.js';
import { EXIT } from './exit-codes.js';
import type { ElementTreeResult, NoTreeReason } from '../../shared/elements.js';
import { assertNever } from '../../shared/assert-never.js';

/**
 * `deskpilot inspect`: the accessibility tree of the focused (or a named) window — what
 * a person writing a test plan or a rule needs: ids, roles, names, values, states and
 * bounds. `--json` prints the tree result exactly as `Computer.elementTree` returns it
 * (shared/elements.ts: keys in a fixed order, each element's stable `path`).
 *
 * Exit codes: 0 a tree; 1 the window exposes no tree (or none matches); 2 bad flags;
 * 6 no display, no accessibility bus or an unsupported OS.
 */
export function registerInspectCommand(program: Command): void {
  program
    .command('inspect')
    .description('print the accessibility tree of the focused window (or --window <regex>)')
    .option('--json', 'print JSON (stable: the tree with every element\'s path)')
    .option('--window <regex>', 'the window(s) whose title or application matches (case-insensitive)')
    .option('--depth <n>', 'levels below the window to read (default 40)')
    .option('--all', 'every window on screen, not only the focused one')
    .option('--hidden', 'also elements that are not on screen (hidden tabs, closed menus)')
    .action(async (flags: InspectFlags) => {
      process.exitCode = await inspectCommand(flags);
    });
}

export interface InspectFlags {
  json?: boolean;
  window?: string;
  depth?: string;
  all?: boolean;
  hidden?: boolean;
}

export function exitForNoTree(reason: NoTreeReason): number {
  switch (reason) {
    case 'not-exposed':
    case 'no-window':
    case 'no-answer':
      return EXIT.failed;
    case 'no-bus':
    case 'unsupported':
      return EXIT.environment;
    default:
      return assertNever(reason, 'no-tree reason');
  }
}

export async function inspectCommand(flags: InspectFlags, out: NodeJS.WritableStream = process.stdout, err: NodeJS.WritableStream = process.stderr, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let maxDepth: number | undefined;
  if (flags.depth !== undefined) {
    maxDepth = Number(flags.depth);
    if (!/^\d+$/.test(flags.depth) || maxDepth > 64) {
      err.write(`deskpilot inspect: --depth must be a whole number from 0 to 64, not ${JSON.stringify(flags.depth)}\n`);
      return EXIT.usage;
    }
  }
  if (flags.window !== undefined) {
    try {
      new RegExp(flags.window, 'i');
    } catch (error) {
      err.write(`deskpilot inspect: --window is not a valid regular expression: ${error instanceof Error ? error.message : String(error)}\n`);
      return EXIT.usage;
    }
  }
  const noDisplay = missingDisplay(env);
  if (noDisplay) {
    err.write(`deskpilot: ${noDisplay}\n`);
    return EXIT.environment;
  }
  const { readElementTree } = await import('../../os-control/accessibility/index.js');
  const { getActiveWindow } = await import('../../os-control/active-window.js');
  const { renderTree } = await import('../../os-control/accessibility/render.js');
  const focused = !flags.all && flags.window === undefined;
  const active = focused ? await getActiveWindow({ env }) : undefined;
  const result: ElementTreeResult = await readElementTree(
    {
      scope: flags.all ? 'all' : 'focused',
      ...(maxDepth !== undefined ? { maxDepth } : {}),
      ...(flags.window !== undefined ? { windowPattern: flags.window } : {}),
      ...(flags.hidden ? { includeHidden: true } : {}),
    },
    active ? { ...(active.pid !== undefined ? { pid: active.pid } : {}), title: active.title, app: active.app } : undefined,
    { env },
  );
  if (flags.json) out.write(`${JSON.stringify(result, null, 2)}\n`);
  if (result.kind === 'none') {
    if (!flags.json) err.write(`deskpilot inspect: no tree (${result.reason}): ${result.detail}\n`);
    return exitForNoTree(result.reason);
  }
  if (!flags.json) out.write(renderTree(result));
  return EXIT.done;
}
