/**
 * Reading AX trees on macOS: one `osascript -l JavaScript` process runs AX_DUMP (System
 * Events' UI elements of the frontmost application's windows) and prints JSON; convert.ts
 * maps it. NOT YET RUN ON macOS (see convert.ts). It needs the Accessibility permission
 * for the process that runs DeskPilot (System Settings → Privacy & Security →
 * Accessibility; `deskpilot doctor` checks it). Element actions other than click answer
 * `unsupported` on macOS for now.
 */
import { z } from 'zod';
import type { ElementTreeRequest, ElementTreeResult } from '../../../shared/elements.js';
import { run } from '../../exec.js';
import { toElementTree } from '../platform-tree.js';
import { AxWindowSchema, axWindowToPlatform } from './convert.js';

/** The JXA dump: MAX_DEPTH, PATTERN ('' = the frontmost window) and ALL are defined before it. */
export const AX_DUMP = String.raw`
const se = Application('System Events');
const attr = (e, name) => { try { return e.attributes.byName(name).value(); } catch (_) { return undefined; } };
const get = (f) => { try { const v = f(); return v === null ? undefined : v; } catch (_) { return undefined; } };
function dump(e, depth) {
  const n = { role: get(() => e.role()) || 'AXUnknown', subrole: get(() => e.subrole()), title: get(() => e.title()) ?? get(() => e.name()),
    description: get(() => e.description()), help: get(() => e.help()), position: get(() => e.position()), size: get(() => e.size()),
    enabled: get(() => e.enabled()), focused: attr(e, 'AXFocused'), selected: get(() => e.selected()), expanded: attr(e, 'AXExpanded'),
    actions: get(() => e.actions.name()) || [], children: [] };
  if (n.subrole !== 'AXSecureTextField') { const v = get(() => e.value()); if (['string', 'number', 'boolean'].includes(typeof v)) n.value = v; }
  if (depth < MAX_DEPTH) n.children = (get(() => e.uiElements()) || []).map((c) => dump(c, depth + 1));
  return n;
}
const procs = PATTERN || ALL ? se.processes() : se.processes.whose({ frontmost: true })();
const out = [];
for (const p of procs) {
  const windows = get(() => p.windows()) || [];
  for (const w of windows) {
    const title = get(() => w.name()) || '';
    if (!ALL && PATTERN && !new RegExp(PATTERN, 'i').test(title)) continue;
    out.push({ app: p.name(), pid: get(() => p.unixId()), root: dump(w, 0) });
    if (!PATTERN && !ALL) break;
  }
}
JSON.stringify(out);
`;

export async function readAxTree(request: ElementTreeRequest): Promise<ElementTreeResult> {
  const prelude = `const MAX_DEPTH = ${request.maxDepth}; const PATTERN = ${JSON.stringify(request.windowPattern ?? '')}; const ALL = ${request.scope === 'all'};`;
  const out = await run('osascript', ['-l', 'JavaScript', '-e', `${prelude}\n${AX_DUMP}`], { timeoutMs: 20_000 });
  return axDumpToTree(out.stdout, request);
}

/** The dump's JSON → a tree result (pure: tested with sample dumps). */
export function axDumpToTree(json: string, request: ElementTreeRequest): ElementTreeResult {
  const windows = z.array(AxWindowSchema).parse(JSON.parse(json));
  if (windows.length === 0) {
    return { kind: 'none', source: 'ax', reason: 'no-window', detail: request.windowPattern ? `no window matches /${request.windowPattern}/` : 'the frontmost application has no window' };
  }
  return toElementTree('ax', windows.map(axWindowToPlatform), request);
}
