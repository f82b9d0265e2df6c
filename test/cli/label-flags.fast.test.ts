import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { addLabelOption } from '../../src/main/cli/label-flags.js';

/** `--label key=value` as commander parses it on `run` and `replay` (what `deskpilot eval` passes its runs). */
function parse(...args: string[]): { label?: Record<string, string> } {
  const command = addLabelOption(new Command('run').exitOverride().configureOutput({ writeErr: () => undefined }));
  command.parse(args, { from: 'user' });
  return command.opts();
}

describe('--label', () => {
  it('collects repeated labels; a value may hold "=" and spaces', () => {
    expect(parse('--label', 'evalSuite=eval-1', '--label', 'evalName=builtin (model)', '--label', 'evalReport=/a b/report.html?x=1').label).toEqual({
      evalSuite: 'eval-1',
      evalName: 'builtin (model)',
      evalReport: '/a b/report.html?x=1',
    });
    expect(parse().label).toBeUndefined();
  });

  it.each([
    ['no "="', 'evalSuite', /expected key=value/],
    ['an empty key', '=x', /expected key=value/],
    ['a key a search cannot name', 'eval suite=x', /a label key is a letter/],
    ['a key DeskPilot sets', 'source=cli', /set by DeskPilot itself/],
    ["a replay's own label", 'replayOf=abc', /set by DeskPilot itself/],
    ['a value of 1001 characters', `k=${'x'.repeat(1001)}`, /at most 1000 characters/],
  ])('refuses %s', (_what, value, message) => {
    expect(() => parse('--label', value)).toThrow(message);
  });

  it('refuses a key given twice rather than keeping one silently', () => {
    expect(() => parse('--label', 'a=1', '--label', 'a=2')).toThrow(/given twice/);
  });
});
