import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePlan, readPlanFile } from '../../src/main/qa/parse-plan.js';
import { PlanError } from '../../src/main/qa/plan-types.js';

const root = path.resolve(__dirname, '../..');

describe('test plan parser', () => {
  it('parses the example xcalc plan', async () => {
    const plan = await readPlanFile(path.join(root, 'examples/xcalc.plan.md'));
    expect(plan.title).toBe('xcalc basics');
    expect(plan.app).toEqual({
      launch: 'xcalc -geometry 260x340+100+100',
      window: 'Calculator',
      regions: { display: { x: 8, y: 2, width: 248, height: 22 } },
      startTimeoutMs: 10_000,
      reset: 'restart',
    });
    expect(plan.cases.map((c) => c.name)).toEqual(['Adds two numbers', 'Multiplies two numbers']);
    expect(plan.cases[0]?.expectations).toEqual([
      { kind: 'region_text', region: 'display', match: 'equals', text: '5', line: 23, source: 'Expect display: 5' },
    ]);
    expect(plan.cases[1]?.steps).toEqual(['Press AC to clear the display.', 'Press 9, ×, 9 and = (× is the "*" button).']);
    expect(plan.cases[1]?.limits).toEqual({ timeoutMs: 120_000, maxSteps: 20, retries: 0 });
  });

  it('reads setup, per-case limits, title and screen expectations, continuation lines', () => {
    const plan = parsePlan(
      [
        '# Editor',
        '## App',
        '- Launch: `gedit`',
        '- Geometry: 800x600+0+0',
        '## Setup',
        '- Run: `rm -f /tmp/x.txt`',
        '- Close the welcome dialog.',
        '## Test 1: Saves',
        '- Retries: 2',
        '- Timeout: 90s',
        '### Steps',
        '* Type hello',
        '  and press Ctrl+S.',
        '### Expected',
        '* Expect title contains: "Saved"',
        '* Expect title: `x.txt - gedit`',
        '* Expect text: hello',
      ].join('\n'),
    );
    expect(plan.setup).toEqual({ commands: ['rm -f /tmp/x.txt'], instructions: ['Close the welcome dialog.'] });
    expect(plan.app.geometry).toEqual({ width: 800, height: 600, x: 0, y: 0 });
    const c = plan.cases[0]!;
    expect(c.steps).toEqual(['Type hello and press Ctrl+S.']);
    expect(c.limits).toEqual({ timeoutMs: 90_000, maxSteps: 30, retries: 2 });
    expect(c.expectations.map((e) => [e.kind, 'match' in e ? e.match : '', e.text])).toEqual([
      ['title', 'contains', 'Saved'],
      ['title', 'equals', 'x.txt - gedit'],
      ['screen_text', '', 'hello'],
    ]);
  });

  const broken: Array<[string, string, RegExp]> = [
    ['no title', '## App\n- Launch: `x`\n## Case: a\nSteps:\n- s\nExpected:\n- e\n', /plan\.md:1: the plan has no "# Title" line/],
    ['no App section', '# T\n## Case: a\nSteps:\n- s\nExpected:\n- e\n', /plan\.md:1: the plan has no "## App" section/],
    ['no launch', '# T\n## App\n- Window: x\n## Case: a\nSteps:\n- s\nExpected:\n- e\n', /plan\.md:2: the App section needs "- Launch/],
    ['unknown region', '# T\n## App\n- Launch: x\n## Case: a\nSteps:\n- s\nExpected:\n- Expect result: 5\n', /plan\.md:8: unknown region "result"/],
    ['bad region', '# T\n## App\n- Launch: x\n- Region d: 1, 2, 0, 4\n## Case: a\nSteps:\n- s\nExpected:\n- e\n', /plan\.md:4: region "1, 2, 0, 4" must be/],
    ['malformed Expect', '# T\n## App\n- Launch: x\n## Case: a\nSteps:\n- s\nExpected:\n- Expect it to work\n', /plan\.md:8: an exact expectation looks like/],
    ['case without steps', '# T\n## App\n- Launch: x\n## Case: a\nExpected:\n- e\n', /plan\.md:4: case "a" has no steps/],
    ['no cases', '# T\n## App\n- Launch: x\n', /the plan has no cases/],
    ['unknown section', '# T\n## Apps\n- Launch: x\n', /plan\.md:2: unknown section "## Apps"/],
    ['bad duration', '# T\n## App\n- Launch: x\n## Defaults\n- Timeout: soon\n## Case: a\nSteps:\n- s\nExpected:\n- e\n', /plan\.md:5: "soon" is not a duration/],
    ['duplicate case', '# T\n## App\n- Launch: x\n## Case: a\nSteps:\n- s\nExpected:\n- e\n## Case: a\nSteps:\n- s\nExpected:\n- e\n', /plan\.md:9: two cases are named "a"/],
    ['reserved region', '# T\n## App\n- Launch: x\n- Region title: 1,1,1,1\n## Case: a\nSteps:\n- s\nExpected:\n- e\n', /plan\.md:4: "title" cannot be a region name/],
  ];
  for (const [label, text, message] of broken) {
    it(`rejects a plan with ${label}, naming the line`, () => {
      let error: unknown;
      try {
        parsePlan(text, 'plan.md');
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(PlanError);
      expect((error as PlanError).message).toMatch(message);
    });
  }

  it('reports every problem, not just the first', () => {
    expect(() => parsePlan('# T\n## App\n- Launch: x\n- Colour: red\n## Case: a\nSteps:\n- s\nExpected:\n- Expect nope: 1\n', 'p.md')).toThrow(
      /p\.md:4: unknown App setting "Colour".*\n.*p\.md:9: unknown region "nope"/,
    );
  });
});
