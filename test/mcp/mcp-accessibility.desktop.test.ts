import { spawnSync } from 'node:child_process';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAccessibilityBus, type AccessibilityBus } from '../harness/a11y-bus.js';
import { startGtkApp, type NativeApp } from '../harness/native-apps.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';
import { tempHome } from '../e2e/support.js';
import { spawnMcp, textOf, type McpUnderTest } from './support.js';

/**
 * Issue 18: the accessibility tools over MCP. `deskpilot mcp` (spawned by the SDK's
 * stdio client) on an Xvfb with a private AT-SPI bus and gnome-calculator (GTK 4).
 * element_tree lists the calculator's buttons with their centres in screenshot pixels,
 * find_element finds one by name and role, and clicking the points it gave (through the
 * MCP click tool, so through the gate) types those digits: the calculator's own display,
 * read back with find_element from its tree, shows them.
 */
let xvfb: Xvfb;
let bus: AccessibilityBus;
let app: NativeApp;
let mcp: McpUnderTest;
const home = tempHome('deskpilot-mcp-a11y-');

beforeAll(async () => {
  xvfb = await startXvfb({ width: 1280, height: 800 });
  bus = await startAccessibilityBus(xvfb);
  app = await startGtkApp(bus.xvfb, 'gnome-calculator');
  spawnSync('xdotool', ['windowactivate', '--sync', app.windowId], { env: bus.env, timeout: 10_000 });
  mcp = await spawnMcp(['--policy', 'auto'], {
    ...(bus.env as Record<string, string>),
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    DESKPILOT_HOME: home.home,
    ANTHROPIC_API_KEY: '',
    OPENAI_API_KEY: '',
  });
}, 90_000);

afterAll(async () => {
  await mcp?.close();
  await app?.stop();
  await bus?.stop();
  await xvfb?.stop();
  home.cleanup();
});

const call = async (name: string, args: Record<string, unknown>): Promise<string> => {
  const result = (await mcp.client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError ?? false, textOf(result)).toBe(false);
  return textOf(result);
};

/** "push button "7 7" at x=612, y=400" → [612, 400]. */
function pointOf(text: string, line: RegExp): [number, number] {
  const found = text.split('\n').find((l) => line.test(l));
  const m = found ? /at x=(\d+), y=(\d+)/.exec(found) : null;
  if (!m) throw new Error(`no line ${line} in:\n${text}`);
  return [Number(m[1]), Number(m[2])];
}

describe('deskpilot mcp: element_tree and find_element', () => {
  it('are offered, read the focused window, and give points the click tool hits', async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['element_tree', 'find_element']));
    expect(tools.find((t) => t.name === 'find_element')?.annotations?.readOnlyHint).toBe(true);

    await call('screenshot', {});
    // GTK registers its tree a moment after the window maps: asked again until the digits are there.
    let outline = '';
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && !/push button "7/.test(outline)) {
      outline = await call('element_tree', {});
      if (!/push button "7/.test(outline)) await new Promise((r) => setTimeout(r, 500));
    }
    expect(outline).toMatch(/^element_tree: the focused window, in the pixels of screenshot/);
    // Nesting is shown by indentation: the buttons sit below the frame.
    expect(outline).toMatch(/\n {2,}push button "7( 7)?" at x=\d+, y=\d+/);
    for (const digit of ['1', '2', '3']) expect(outline).toMatch(new RegExp(`push button "${digit}( ${digit})?" at`));

    const found = await call('find_element', { name: '7', role: 'push button' });
    expect(found).toMatch(/^find_element: 1 match\(es\) for push button "7"/);
    // Click 7, then 3 (its point from the outline), each through the MCP click tool.
    const [x7, y7] = pointOf(found, /^push button "7/);
    await call('click', { x: x7, y: y7 });
    const [x3, y3] = pointOf(outline, /^\s*push button "3( 3)?" at/);
    await call('click', { x: x3, y: y3 });
    // The calculator's own display (an editable text in its tree) shows exactly what was clicked.
    let display = '';
    const shown = Date.now() + 20_000;
    while (Date.now() < shown && !/value="73"/.test(display.replace(/\s(?=\d)/g, ''))) {
      display = await call('find_element', { role: 'text' });
      await new Promise((r) => setTimeout(r, 300));
    }
    expect(display.replace(/\s(?=\d)/g, '')).toMatch(/value="73"/);
  }, 150_000);

  it('ground (issue 33): the resolve chain over MCP, its point in screenshot pixels is find_element\'s and the click tool hits it; ambiguous and empty descriptions say so', async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.find((t) => t.name === 'ground')?.annotations?.readOnlyHint).toBe(true);
    await call('screenshot', {});
    const seven = await call('ground', { description: 'the 7 button' });
    expect(seven).toMatch(/^ground: found by tree \(confidence 1\.00\): .*7.* at x=\d+, y=\d+ in the pixels of screenshot/);
    const [gx, gy] = pointOf(seven, /^ground: found/);
    expect([gx, gy]).toEqual(pointOf(await call('find_element', { name: '7', role: 'push button' }), /^push button "7/));
    const many = await call('ground', { description: 'the button' });
    expect(many).toMatch(/^ground: ambiguous: \d+ equally good matches/);
    expect(many.split('\n').filter((l) => /^candidate tree .* at x=\d+, y=\d+$/.test(l)).length).toBeGreaterThan(10);
    const empty = (await mcp.client.callTool({ name: 'ground', arguments: { description: '  ' } })) as CallToolResult;
    expect(empty.isError).toBe(true);
    expect(textOf(empty)).toMatch(/^ground: .*description is empty/);
    // Its point for "the 9 button", clicked through the click tool, reaches the calculator's display.
    const [x9, y9] = pointOf(await call('ground', { description: 'the 9 button' }), /^ground: found/);
    await call('click', { x: x9, y: y9 });
    let display = '';
    const shown = Date.now() + 20_000;
    while (Date.now() < shown && !/value="[^"]*9"/.test(display.replace(/\s(?=\d)/g, ''))) {
      display = await call('find_element', { role: 'text' });
      await new Promise((r) => setTimeout(r, 300));
    }
    expect(display.replace(/\s(?=\d)/g, '')).toMatch(/value="[^"]*9"/);
  }, 150_000);

  it('says so when no name or role is given (an input error, nothing read)', async () => {
    const result = (await mcp.client.callTool({ name: 'find_element', arguments: {} })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/give a name, a role, or both/);
  }, 60_000);
});
