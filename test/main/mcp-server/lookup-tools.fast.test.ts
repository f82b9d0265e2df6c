import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Computer } from '../../../src/os-control/types.js';
import { elementTreeForRun } from '../../../src/main/agent/tools/element-tree.js';
import { findElementForRun } from '../../../src/main/agent/tools/find-element.js';
import { findTextForRun } from '../../../src/main/agent/tools/find-text.js';
import { groundForRun } from '../../../src/main/agent/tools/ground.js';
import { LOOKUP_TOOLS } from '../../../src/main/agent/tools/lookup-tools.js';
import { toolSpec } from '../../../src/main/agent/providers/tool-spec.js';
import { answersWithScreenshot, DESKTOP_TOOL_NAMES, DESKTOP_TOOLS } from '../../../src/main/mcp-server/desktop-tools.js';

// Issue 29 item 7: `deskpilot mcp` declares its lookups with the agent's own declarations —
// one description, one input schema — so a model and an MCP client are told the same and
// held to the same. The agent tools are built as the MCP session builds them
// (desktop-session.ts: find*ForRun); building one reads nothing from the computer.
const unusedComputer = {} as Computer;
const agentTools = [findTextForRun(unusedComputer).tool, findElementForRun(unusedComputer).tool, elementTreeForRun(unusedComputer).tool, groundForRun(unusedComputer, () => undefined).tool];

describe('MCP lookups are the agent tools’ declarations', () => {
  it.each(agentTools.map((t) => [t.name, t] as const))('%s: the same input schema and description in both', (name, tool) => {
    const mcp = DESKTOP_TOOLS[name as keyof typeof LOOKUP_TOOLS];
    expect(mcp.input).toBe(tool.input);
    expect(mcp.description).toBe(tool.description);
    // What the model is told (its tool definition) is what the MCP client is told.
    expect(toolSpec(tool).parameters).toEqual(toolSpec({ ...mcp, name }).parameters);
  });

  it('the MCP tools that answer in text are exactly the agent’s lookups the session runs', () => {
    expect(DESKTOP_TOOL_NAMES.filter((n) => !answersWithScreenshot(n)).sort()).toEqual(agentTools.map((t) => t.name).sort());
    expect(Object.keys(LOOKUP_TOOLS).sort()).toEqual(agentTools.map((t) => t.name).sort());
  });
});

describe('the one declaration refuses bad input with a reason, for either caller', () => {
  const problem = (schema: z.ZodType, input: unknown) => {
    const r = schema.safeParse(input);
    return r.success ? undefined : r.error.issues.map((i) => i.message).join('; ');
  };

  it('a misspelt key is an error, not an argument dropped', () => {
    expect(problem(LOOKUP_TOOLS.element_tree.input, { max_depht: 2 })).toMatch(/max_depht/);
    expect(problem(LOOKUP_TOOLS.find_text.input, { text: 'Save', regoin: { x: 0, y: 0, width: 10, height: 10 } })).toMatch(/regoin/);
    expect(problem(LOOKUP_TOOLS.find_element.input, { name: 'Save', rol: 'push button' })).toMatch(/rol/);
    expect(problem(LOOKUP_TOOLS.ground.input, { descripton: 'the Save button' })).toMatch(/descripton/);
  });

  it('find_element needs a name or a role; find_text a label and a region of positive size', () => {
    expect(problem(LOOKUP_TOOLS.find_element.input, {})).toBe('give a name, a role, or both');
    expect(problem(LOOKUP_TOOLS.find_element.input, { role: 'push button' })).toBeUndefined();
    expect(problem(LOOKUP_TOOLS.find_text.input, { text: '   ' })).toBeDefined();
    expect(problem(LOOKUP_TOOLS.find_text.input, { text: 'Save', region: { x: 0, y: 0, width: 0, height: 5 } })).toBeDefined();
    expect(LOOKUP_TOOLS.find_text.input.parse({ text: '  Save ' })).toEqual({ text: 'Save' });
  });
});
