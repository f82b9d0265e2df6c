import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { axDumpToTree } from '../../src/os-control/accessibility/ax/read.js';
import { readElementTree } from '../../src/os-control/accessibility/index.js';
import { uiaDumpToTree } from '../../src/os-control/accessibility/uia/read.js';
import { ElementTreeOptionsSchema, ElementTreeResultSchema, walkElements, type ElementTree } from '../../src/shared/elements.js';

// Windows UI Automation and macOS AX behind the one tree interface (issue 16). NOT RUN ON
// REAL HARDWARE: the sample dumps in fixtures/ are written in the shape the dump scripts
// (uia/read.ts UIA_DUMP, ax/read.ts AX_DUMP) print, for the same small sign-in window,
// not recorded on Windows or macOS. What is tested is everything after the dump.
// recorded-trees.test.ts runs the same mapping on trees recorded on real machines.

const fixture = (name: string) => readFileSync(path.join(import.meta.dirname, 'fixtures', name), 'utf8');
const request = ElementTreeOptionsSchema.parse({});
const nodes = (t: ElementTree) => [...walkElements(t.windows.map((w) => w.root))];

function asTree(result: ReturnType<typeof uiaDumpToTree>): ElementTree {
  ElementTreeResultSchema.parse(result);
  if (result.kind !== 'tree') throw new Error(result.detail);
  return result;
}

for (const [source, tree, all] of [
  ['uia', () => asTree(uiaDumpToTree(fixture('uia-login.json'), request, 1)), () => asTree(uiaDumpToTree(fixture('uia-login.json'), ElementTreeOptionsSchema.parse({ includeHidden: true }), 1))],
  ['ax', () => asTree(axDumpToTree(fixture('ax-login.json'), request)), () => asTree(axDumpToTree(fixture('ax-login.json'), ElementTreeOptionsSchema.parse({ includeHidden: true })))],
] as const) {
  describe(`${source}: the sign-in window as a DeskPilot tree`, () => {
    it('roles in the one vocabulary, stable paths, bounds in points, states in order', () => {
      const t = tree();
      expect(t.source).toBe(source);
      expect(t.windows[0]!.app).toBe('LoginDemo');
      const root = t.windows[0]!.root;
      expect(root.path).toBe('application "LoginDemo" > frame "Sign in"');
      const signIn = nodes(t).find((n) => n.role === 'push button' && n.name === 'Sign in')!;
      expect(signIn.path).toBe('application "LoginDemo" > frame "Sign in" > push button "Sign in"');
      expect(signIn.bounds).toEqual({ x: 660, y: 540, width: 100, height: 32 });
      expect(signIn.states).toEqual(expect.arrayContaining(['enabled', 'visible']));
      expect(signIn.actions.length).toBeGreaterThan(0);
      const user = nodes(t).find((n) => n.role === 'text' && n.name === 'User name')!;
      expect(user.value).toBe('ada');
      expect(user.states).toEqual(['focused', 'focusable', 'enabled', 'editable', 'visible']);
      expect(nodes(t).find((n) => n.role === 'check box')!.states).toContain('checked');
    });

    it('a password field is "password text" and never carries its text', () => {
      const pw = nodes(tree()).find((n) => n.role === 'password text')!;
      expect(pw.name).toBe('Password');
      expect(pw.states).toContain('password');
      expect(pw.value).toBeUndefined();
      expect(JSON.stringify(tree())).not.toContain('hunter');
    });

    it('hidden elements only when asked for; the depth limit counts what it left out', () => {
      const shown = nodes(tree()).length;
      expect(nodes(all()).length).toBeGreaterThanOrEqual(shown);
      const shallow = source === 'uia' ? uiaDumpToTree(fixture('uia-login.json'), ElementTreeOptionsSchema.parse({ maxDepth: 0 }), 1) : axDumpToTree(fixture('ax-login.json'), ElementTreeOptionsSchema.parse({ maxDepth: 0 }));
      const root = asTree(shallow).windows[0]!.root;
      expect(root.children).toEqual([]);
      expect(root.omittedChildren).toBeGreaterThan(0);
    });
  });
}

describe('platform specifics', () => {
  it('uia: an offscreen duplicate is left out by default and numbered [1] when kept; pixels divided by the scale', () => {
    const kept = nodes(asTree(uiaDumpToTree(fixture('uia-login.json'), ElementTreeOptionsSchema.parse({ includeHidden: true }), 1)));
    expect(kept.filter((n) => n.name === 'Sign in' && n.role === 'push button').map((n) => n.path.split(' > ').at(-1))).toEqual(['push button "Sign in"', 'push button "Sign in"[1]']);
    const scaled = nodes(asTree(uiaDumpToTree(fixture('uia-login.json'), request, 2))).find((n) => n.role === 'push button')!;
    expect(scaled.bounds).toEqual({ x: 330, y: 270, width: 50, height: 16 });
    expect(nodes(asTree(uiaDumpToTree(fixture('uia-login.json'), request, 1))).find((n) => n.role === 'combo box')!.states).toContain('collapsed');
  });

  it('ax: a disabled pop-up button is a combo box without "enabled"; a static text is a label named by its value', () => {
    const t = asTree(axDumpToTree(fixture('ax-login.json'), request));
    const domain = nodes(t).find((n) => n.role === 'combo box')!;
    expect(domain.states).not.toContain('enabled');
    expect(domain.value).toBe('corp');
    expect(nodes(t).some((n) => n.role === 'label')).toBe(true);
  });

  it('a dump that is not the expected shape is an error, never a half tree', () => {
    expect(() => uiaDumpToTree('[{"app":"x","root":{"controlType":"Button"}}]', request, 1)).toThrow();
    expect(() => axDumpToTree('not json', request)).toThrow();
  });

  it('on this Linux machine, asking as Windows finds no PowerShell: a clear "no-bus" answer naming the dump, not an exception', async () => {
    const r = await readElementTree({}, undefined, { platform: 'win32' });
    expect(r).toMatchObject({ kind: 'none', source: 'uia', reason: 'no-bus' });
    if (r.kind === 'none') expect(r.detail).toMatch(/UI Automation dump \(PowerShell\) failed/);
  });
});
