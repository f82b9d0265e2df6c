/**
 * Each doctor check against invented machine answers (the real machine is in
 * doctor.desktop.test.ts): what it reports, the fix it names, and whether it stops
 * `deskpilot doctor` (exit 1) or only warns.
 */
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/main/config/index.js';
import { doctor } from '../../src/main/cli/doctor-command.js';
import { runDoctor, type DoctorCheck, type DoctorProbes } from '../../src/main/doctor/index.js';
import { localDisplaySocket } from '../../src/main/doctor/checks-linux.js';
import { isLoopbackUrl } from '../../src/main/doctor/checks-common.js';
import type { CommandResult } from '../../src/main/doctor/types.js';
import type { Config } from '../../src/shared/config.js';

const OK: CommandResult = { code: 0, stdout: '', stderr: '' };

/** A healthy Linux desktop; each test breaks one thing. */
function machine(over: Partial<DoctorProbes> & { tools?: string[]; commands?: Record<string, CommandResult> } = {}): DoctorProbes {
  const tools = over.tools ?? ['xset', 'xrandr', 'xdotool', 'xclip', 'xsel', 'fc-list', 'xlsfonts', 'dbus-send'];
  const commands: Record<string, CommandResult> = {
    'fc-list': { code: 0, stdout: 'DejaVu Sans\nDejaVu Sans Mono\n', stderr: '' },
    xlsfonts: { code: 0, stdout: Array.from({ length: 900 }, (_, i) => `font-${i}`).join('\n'), stderr: '' },
    'dbus-send:GetId': { code: 0, stdout: 'string "abc"', stderr: '' },
    'dbus-send:GetAddress': { code: 0, stdout: '   string "unix:path=/run/user/1000/at-spi/bus,guid=1"', stderr: '' },
    'dbus-send:ListNames': { code: 0, stdout: 'string "org.freedesktop.secrets"', stderr: '' },
    ...over.commands,
  };
  return {
    platform: 'linux',
    env: { DISPLAY: ':0', DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1000/bus', ANTHROPIC_API_KEY: 'sk-test' },
    nodeVersion: 'v20.19.1',
    which: async (c) => (tools.includes(c) ? `/usr/bin/${c}` : undefined),
    run: async (c, args) => {
      const method = args.find((a) => a.startsWith('org.freedesktop.DBus.') || a.startsWith('org.a11y.'))?.split('.').pop();
      return commands[method ? `${c}:${method}` : c] ?? OK;
    },
    stat: async () => ({ isDirectory: true, mode: 0o700, uid: 1000 }),
    uid: () => 1000,
    tcpConnect: async () => ({ ok: false, error: 'ECONNREFUSED' }),
    unixConnect: async () => true,
    macPermissions: async () => ({ screen: 'granted', accessibility: 'granted' }),
    loadConfig: async () => defaultConfig(),
    home: '/home/u/.deskpilot',
    accessibleWindows: async () => ({
      kind: 'tree',
      source: 'atspi',
      scope: 'all',
      nodeCount: 1,
      truncated: false,
      windows: [{ app: 'gnome-calculator', root: { path: 'application "gnome-calculator" > frame "Calculator"', role: 'frame', name: 'Calculator', states: [], actions: [], children: [] } }],
    }),
    ...over,
  };
}

const byId = async (p: DoctorProbes) => {
  const report = await runDoctor(p);
  return { report, get: (id: string) => report.checks.find((c) => c.id === id)! };
};

describe('deskpilot doctor checks', () => {
  it('a healthy Linux desktop is ready, with nothing failed', async () => {
    const { report, get } = await byId(machine());
    expect(report.ok).toBe(true);
    expect(report.checks.filter((c) => c.status === 'fail')).toEqual([]);
    expect(get('display').status).toBe('ok');
    expect(get('keychain').status).toBe('ok');
    expect(get('accessibility-bus').detail).toContain('/run/user/1000/at-spi/bus');
    expect(get('accessible-windows')).toMatchObject({ status: 'ok', detail: '1 window exposes a tree: gnome-calculator "Calculator"' });
    expect(get('macos-permissions').status).toBe('skip');
  });

  it('windows without a tree only warn, with the reason and what to do', async () => {
    const { report, get } = await byId(
      machine({ accessibleWindows: async () => ({ kind: 'none', source: 'atspi', reason: 'no-window', detail: 'no application on the accessibility bus has a window on screen' }) }),
    );
    expect(report.ok).toBe(true);
    expect(get('accessible-windows').status).toBe('warn');
    expect(get('accessible-windows').detail).toContain('no-window');
    expect(get('accessible-windows').fix).toContain('--force-renderer-accessibility');
  });

  it('no DISPLAY fails and says how to get one', async () => {
    const { report, get } = await byId(machine({ env: {} }));
    expect(report.ok).toBe(false);
    expect(get('display')).toMatchObject({ status: 'fail', detail: 'DISPLAY is not set' });
    expect(get('display').fix).toContain('Xvfb');
  });

  it('a display that does not answer fails with the error xset gave', async () => {
    const { get } = await byId(machine({ commands: { xset: { code: 1, stdout: '', stderr: 'xset:  unable to open display ":0"\n' } } }));
    expect(get('display')).toMatchObject({ status: 'fail' });
    expect(get('display').detail).toContain('unable to open display');
  });

  it('without xset the local X socket is tried', async () => {
    const tools = ['xrandr', 'xdotool', 'xclip', 'fc-list'];
    expect((await byId(machine({ tools, unixConnect: async () => true }))).get('display').status).toBe('ok');
    expect((await byId(machine({ tools, unixConnect: async () => false }))).get('display').status).toBe('fail');
    expect(localDisplaySocket(':3.0')).toBe('/tmp/.X11-unix/X3');
    expect(localDisplaySocket('host:3')).toBeUndefined();
  });

  it.each([
    ['xdotool', 'sudo apt-get install xdotool'],
    ['xrandr', 'sudo apt-get install x11-xserver-utils'],
  ])('a missing %s fails with the package to install', async (tool, fix) => {
    const tools = ['xset', 'xrandr', 'xdotool', 'xclip', 'fc-list'].filter((t) => t !== tool);
    const { report, get } = await byId(machine({ tools }));
    expect(report.ok).toBe(false);
    expect(get(tool)).toMatchObject({ status: 'fail', fix });
  });

  it('either xclip or xsel is enough; neither fails', async () => {
    expect((await byId(machine({ tools: ['xset', 'xrandr', 'xdotool', 'xsel', 'fc-list'] }))).get('clipboard')).toMatchObject({ status: 'ok', detail: 'xsel' });
    expect((await byId(machine({ tools: ['xset', 'xrandr', 'xdotool', 'fc-list'] }))).get('clipboard')).toMatchObject({ status: 'fail', fix: 'sudo apt-get install xclip' });
  });

  it('only the built-in X core fonts warns and names xfonts-base; no fonts at all fails', async () => {
    const builtIns = { code: 0, stdout: '-misc-fixed-medium-r-semicondensed--13-120-75-75-c-60-iso8859-1\n6x13\ncursor\nfixed\n', stderr: '' };
    const few = await byId(machine({ commands: { xlsfonts: builtIns } }));
    expect(few.get('fonts').status).toBe('warn');
    expect(few.get('fonts').fix).toContain('xfonts-base');
    const none = await byId(machine({ commands: { 'fc-list': { code: 0, stdout: '', stderr: '' } } }));
    expect(none.get('fonts').status).toBe('fail');
    // fc-list that did not answer (timed out: a first run rebuilding its cache) is not "no fonts".
    const slow = await byId(machine({ commands: { 'fc-list': { code: null, stdout: '', stderr: '' } } }));
    expect(slow.get('fonts')).toEqual({ id: 'fonts', required: true, status: 'warn', detail: 'fc-list did not answer within 30 s: fonts not checked', fix: 'run fc-cache once (it builds the font cache), then deskpilot doctor again' });
    expect(slow.report.ok).toBe(true);
  });

  it.each([
    ['v20.10.0', 'fail'],
    ['v20.18.3', 'fail'],
    ['v20.19.0', 'ok'],
    ['v21.7.0', 'fail'],
    ['v22.12.0', 'fail'],
    ['v22.13.0', 'ok'],
    ['v24.0.0', 'ok'],
  ])('Node %s → %s', async (nodeVersion, status) => {
    expect((await byId(machine({ nodeVersion }))).get('node').status).toBe(status);
  });

  it('the data folder: private ok, readable by others warns, owned by someone else fails, a file fails', async () => {
    expect((await byId(machine())).get('data-folder').status).toBe('ok');
    const open = (await byId(machine({ stat: async () => ({ isDirectory: true, mode: 0o755, uid: 1000 }) }))).get('data-folder');
    expect(open).toMatchObject({ status: 'warn', fix: 'chmod 700 "/home/u/.deskpilot"' });
    expect((await byId(machine({ stat: async () => ({ isDirectory: true, mode: 0o700, uid: 0 }) }))).get('data-folder').status).toBe('fail');
    expect((await byId(machine({ stat: async () => ({ isDirectory: false, mode: 0o600, uid: 1000 }) }))).get('data-folder').status).toBe('fail');
    expect((await byId(machine({ stat: async () => undefined }))).get('data-folder').status).toBe('ok');
  });

  it('no keychain, no key, no accessibility bus: warnings only, the machine is still ready (CI)', async () => {
    const { report, get } = await byId(machine({ env: { DISPLAY: ':0' } }));
    expect(get('keychain').status).toBe('warn');
    expect(get('profile:claude')).toMatchObject({ status: 'warn', fix: expect.stringContaining('ANTHROPIC_API_KEY') });
    expect(get('accessibility-bus').status).toBe('warn');
    expect(report.ok).toBe(true);
  });

  it('a session bus without the accessibility bus warns', async () => {
    const { get } = await byId(machine({ commands: { 'dbus-send:GetAddress': { code: 1, stdout: '', stderr: 'Error org.freedesktop.DBus.Error.ServiceUnknown' } } }));
    expect(get('accessibility-bus').status).toBe('warn');
    expect(get('accessibility-bus').detail).toContain('ServiceUnknown');
  });

  it('loopback model servers: listening is ok, refused warns; only chosen or user-written profiles are checked', async () => {
    const config: Config = { ...defaultConfig(), defaultProfile: 'ollama' };
    config.profiles = { ...config.profiles, mine: { provider: 'openai-compatible', model: 'm', baseUrl: 'http://localhost:8080/v1' } };
    const asked: string[] = [];
    const { get, report } = await byId(
      machine({
        loadConfig: async () => config,
        tcpConnect: async (host, port) => {
          asked.push(`${host}:${port}`);
          return port === 8080 ? { ok: true } : { ok: false, error: 'ECONNREFUSED' };
        },
      }),
    );
    expect(asked.sort()).toEqual(['127.0.0.1:11434', 'localhost:8080']);
    expect(get('profile:mine').status).toBe('ok');
    expect(get('profile:ollama')).toMatchObject({ status: 'warn' });
    expect(get('profile:ollama').detail).toContain('(default)');
    expect(report.checks.some((c) => c.id === 'profile:lm-studio' || c.id === 'profile:claude')).toBe(false);
    expect(isLoopbackUrl('http://[::1]:9000/v1')).toEqual({ host: '::1', port: 9000 });
    expect(isLoopbackUrl('https://api.openai.com/v1')).toBeUndefined();
  });

  it('macOS: a permission not granted fails with the System Settings path; one that cannot be read warns', async () => {
    const mac = (screen: 'granted' | 'denied' | 'unknown', accessibility: 'granted' | 'denied' | 'unknown') =>
      byId(machine({ platform: 'darwin', env: {}, macPermissions: async () => ({ screen, accessibility }), run: async () => ({ code: 0, stdout: '"/Users/u/Library/Keychains/login.keychain-db"', stderr: '' }) }));
    const denied = await mac('denied', 'granted');
    expect(denied.report.ok).toBe(false);
    expect(denied.get('screen-recording')).toMatchObject({ status: 'fail', fix: expect.stringContaining('Privacy & Security → Screen Recording') });
    expect(denied.get('accessibility').status).toBe('ok');
    const unknown = await mac('unknown', 'denied');
    expect(unknown.get('screen-recording').status).toBe('warn');
    expect(unknown.get('accessibility').status).toBe('fail');
    const fine = await mac('granted', 'granted');
    expect(fine.report.ok).toBe(true);
    expect(fine.get('display').status).toBe('skip');
    expect(fine.get('keychain').status).toBe('ok');
  });

  it('a check that throws is a failure of that check; a non-required one can only warn', async () => {
    const broken: DoctorCheck = { id: 'broken', required: true, run: async () => { throw new Error('boom'); } };
    const optional: DoctorCheck = { id: 'optional', required: false, run: async () => ({ id: 'optional', status: 'fail', detail: 'x', fix: 'y' }) };
    const report = await runDoctor(machine(), [broken, optional]);
    expect(report.checks).toEqual([
      expect.objectContaining({ id: 'broken', status: 'fail', detail: expect.stringContaining('boom') }),
      expect.objectContaining({ id: 'optional', status: 'warn' }),
    ]);
    expect(report.ok).toBe(false);
  });

  it('prints one line per check with its fix, and JSON with --json; exit 1 on a failure', async () => {
    let text = '';
    const out = { write: (s: string) => ((text += s), true) } as unknown as NodeJS.WritableStream;
    expect(await doctor({}, machine({ tools: ['xset', 'xrandr', 'xclip', 'fc-list'] }), out)).toBe(1);
    expect(text).toMatch(/^FAIL {2}xdotool +xdotool not found on PATH .* — fix: sudo apt-get install xdotool$/m);
    expect(text.trim().split('\n').at(-1)).toBe('1 required check failed.');
    text = '';
    expect(await doctor({ json: true }, machine(), out)).toBe(0);
    const parsed = JSON.parse(text) as { ok: boolean; checks: Array<{ id: string; status: string; required: boolean }> };
    expect(parsed.ok).toBe(true);
    expect(parsed.checks.find((c) => c.id === 'xdotool')).toMatchObject({ status: 'ok', required: true });
  });

  it('qa --workers: warns (never fails) when Xvfb, openbox or dbus-daemon are missing, naming the packages', async () => {
    const { report, get } = await byId(machine({ tools: ['xset', 'xrandr', 'xdotool', 'xclip', 'fc-list', 'xlsfonts', 'dbus-send', 'openbox', 'xprop'] }));
    expect(get('qa-workers')).toMatchObject({ status: 'warn', required: false, fix: 'sudo apt-get install xvfb dbus-x11' });
    expect(get('qa-workers').detail).toMatch(/falls back to one worker on this display: Xvfb not found \(the virtual displays\), dbus-daemon not found/);
    expect(report.ok).toBe(true);
    const full = await byId(machine({ tools: ['xset', 'xrandr', 'xdotool', 'xclip', 'fc-list', 'xlsfonts', 'dbus-send', 'Xvfb', 'openbox', 'dbus-daemon', 'xprop'] }));
    expect(full.get('qa-workers').status).toBe('ok');
  });
});
