import { describe, expect, it } from 'vitest';
import { toolSpec } from '../../src/main/agent/providers/tool-spec.js';
import { CaseState } from '../../src/main/qa/case-state.js';
import { createFindTextTool } from '../../src/main/agent/tools/find-text.js';
import { createVerdictTool } from '../../src/main/qa/verdict-tool.js';
import type { TestCase } from '../../src/main/qa/plan-types.js';
import { createFakeComputer } from '../harness/fake-computer.js';

// QA's tools are declared once (zod): the JSON Schema the model gets is generated from
// the same schema the verdict is parsed with, so the two cannot drift apart.

describe('QA tools as AgentTools', () => {
  it('qa_verdict: the schema the model gets is the one the input is parsed with', () => {
    const tool = createVerdictTool({ expected: [] } as unknown as TestCase, new CaseState());
    const spec = toolSpec(tool);
    expect(spec.name).toBe('qa_verdict');
    const p = spec.parameters as { properties: Record<string, Record<string, unknown>>; required: string[]; additionalProperties: boolean };
    expect(p.required).toEqual(['verdict', 'reason']);
    expect(p.additionalProperties).toBe(false);
    expect(p.properties.verdict).toEqual({ type: 'string', enum: ['pass', 'fail', 'blocked'] });
    expect(p.properties.evidence).toMatchObject({ type: 'array', items: { type: 'string' }, description: expect.stringContaining('"latest"') });
    const check = (p.properties.checks as { items: { properties: Record<string, Record<string, unknown>>; required: string[] } }).items;
    expect(check.required).toEqual(['expectation']);
    expect(check.properties.expectation).toMatchObject({ type: 'integer', minimum: 1 });
    expect(check.properties.region).toMatchObject({ type: 'object', required: ['x', 'y', 'width', 'height'], additionalProperties: false });
    // What the schema promises, the parser accepts; what it refuses, the parser refuses.
    expect(tool.input.safeParse({ verdict: 'pass', reason: 'shows 5' }).success).toBe(true);
    expect(tool.input.safeParse({ verdict: 'maybe', reason: 'x' }).success).toBe(false);
    expect(tool.input.safeParse({ verdict: 'pass', reason: 'x', extra: 1 }).success).toBe(false);
  });

  it('find_text: text required, region optional', () => {
    const spec = toolSpec(createFindTextTool(createFakeComputer(), new CaseState()));
    const p = spec.parameters as { properties: Record<string, Record<string, unknown>>; required: string[] };
    expect(spec.name).toBe('find_text');
    expect(p.required).toEqual(['text']);
    expect(p.properties.text).toMatchObject({ type: 'string', minLength: 1, maxLength: 200 });
    expect(Object.keys(p.properties)).toEqual(['text', 'region']);
  });
});
