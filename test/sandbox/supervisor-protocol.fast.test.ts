import { describe, expect, it } from 'vitest';
import { parseSupervisorLine } from '../../src/main/sandbox/supervisor.js';

// What the host accepts from the supervisor inside a run's sandbox (sandbox/supervisor.ts):
// it runs next to the model's commands, so any line that is not exactly one of its
// messages ends the session instead of being read as a result.

describe('parseSupervisorLine', () => {
  it('accepts the three messages exactly', () => {
    expect(parseSupervisorLine('{"ready":true,"ns":"pid:[4026532301]"}')).toEqual({ ok: true, message: { ready: true, ns: 'pid:[4026532301]' } });
    expect(parseSupervisorLine('{"id":0,"out":"hi\\n"}')).toEqual({ ok: true, message: { id: 0, out: 'hi\n' } });
    expect(parseSupervisorLine('{"id":3,"exit":null,"signal":"SIGKILL","cut":0,"swept":2}')).toEqual({ ok: true, message: { id: 3, exit: null, signal: 'SIGKILL', cut: 0, swept: 2 } });
    expect(parseSupervisorLine('{"id":3,"exit":1,"signal":null,"cut":12,"swept":0}')).toEqual({ ok: true, message: { id: 3, exit: 1, signal: null, cut: 12, swept: 0 } });
  });

  it('refuses anything else, saying what it was', () => {
    expect(parseSupervisorLine('hello from a command')).toEqual({ ok: false, reason: 'not JSON: hello from a command' });
    expect(parseSupervisorLine(`${'x'.repeat(100)}`)).toEqual({ ok: false, reason: `not JSON: ${'x'.repeat(80)}` });
    const refused = [
      '{"ready":false,"ns":"pid:[1]"}',
      '{"ready":true,"ns":"mnt:[1]"}',
      '{"ready":true,"ns":"pid:[1]x"}',
      '{"ready":true,"ns":"xpid:[1]"}',
      '{"ready":true}',
      '{"id":-1,"out":"x"}',
      '{"id":1.5,"out":"x"}',
      '{"id":1,"out":2}',
      '{"id":1,"out":"x","exit":0}',
      '{"id":1,"exit":0.5,"signal":null,"cut":0,"swept":0}',
      '{"id":1,"exit":0,"signal":null,"cut":-1,"swept":0}',
      '{"id":1,"exit":0,"signal":null,"cut":0,"swept":-1}',
      '{"id":1,"exit":0,"signal":null,"cut":0}',
      '{"id":1,"exit":0,"signal":null,"cut":0.5,"swept":0}',
      '{"id":1,"exit":0,"signal":null,"cut":0,"swept":0.5}',
      '{"id":1,"exit":0,"signal":3,"cut":0,"swept":0}',
      '[]',
      'null',
    ];
    for (const line of refused) expect(parseSupervisorLine(line), line).toEqual({ ok: false, reason: `not a supervisor message: ${line}` });
    const long = `{"id":1,"out":2,"pad":"${'y'.repeat(100)}"}`;
    expect(parseSupervisorLine(long)).toEqual({ ok: false, reason: `not a supervisor message: ${long.slice(0, 80)}` });
  });
});
