/** `deskpilot inspect` without a desktop: bad flags and a missing bus are clear, with their exit codes. */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { inspectCommand } from '../../src/main/cli/inspect-command.js';
import { EXIT } from '../../src/main/cli/exit-codes.js';

function streams() {
  const out = new PassThrough();
  const err = new PassThrough();
  let o = '';
  let e = '';
  out.on('data', (d: Buffer) => (o += d.toString()));
  err.on('data', (d: Buffer) => (e += d.toString()));
  return { out, err, text: () => ({ out: o, err: e }) };
}

describe('deskpilot inspect', () => {
  it.each([
    [{ depth: 'deep' }, '--depth must be a whole number'],
    [{ depth: '65' }, '--depth must be a whole number from 0 to 64'],
    [{ window: '(' }, '--window is not a valid regular expression'],
  ])('%j is a usage error', async (flags, message) => {
    const s = streams();
    expect(await inspectCommand(flags, s.out, s.err, { DISPLAY: ':0' })).toBe(EXIT.usage);
    expect(s.text().err).toContain(message);
    expect(s.text().out).toBe('');
  });

  it.runIf(process.platform === 'linux')('no session bus: exit 6 with the reason, and --json prints the same result as JSON', async () => {
    const env = { DISPLAY: ':0', PATH: process.env.PATH ?? '' };
    const s = streams();
    expect(await inspectCommand({ window: 'anything' }, s.out, s.err, env)).toBe(EXIT.environment);
    expect(s.text().err).toContain('no tree (no-bus): no session bus (DBUS_SESSION_BUS_ADDRESS is not set)');
    const j = streams();
    expect(await inspectCommand({ window: 'anything', json: true }, j.out, j.err, env)).toBe(EXIT.environment);
    expect(JSON.parse(j.text().out)).toEqual({ kind: 'none', source: 'atspi', reason: 'no-bus', detail: 'no session bus (DBUS_SESSION_BUS_ADDRESS is not set), so no accessibility bus' });
  });
});
