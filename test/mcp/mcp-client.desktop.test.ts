import { execFileSync, spawn } from 'node:child_process';
import { createServer as createHttpServer, request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeModel, type FakeModelServer, type FakeRequest } from '../harness/fake-model/index.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';
import { finish, REPO_ROOT, runCli, tempHome, until } from '../e2e/support.js';

// config.json mcpServers as the agent's tools, through `deskpilot run` (the real bin)
// and the fake model, with the real reference servers from npm: the filesystem server
// and the everything server, started over stdio by DeskPilot.

const FS_SERVER = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const EVERYTHING = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

let xvfb: Xvfb;
let fake: FakeModelServer;
const home = tempHome('deskpilot-mcp-client-');
const files = mkdtempSync(path.join(os.tmpdir(), 'dp-mcp-files-'));

beforeAll(async () => {
  xvfb = await startXvfb({ width: 800, height: 600, windowManager: false });
}, 60_000);
beforeEach(async () => {
  await fake?.close();
  fake = await startFakeModel();
});
afterAll(async () => {
  await fake?.close();
  await xvfb?.stop();
  home.cleanup();
  rmSync(files, { recursive: true, force: true });
});

function configure(mcpServers: Record<string, unknown>): void {
  writeFileSync(path.join(home.home, 'config.json'), JSON.stringify({ mcpServers }));
}

const run = (stdin: string) =>
  runCli(
    ['run', 'use the tools', '--provider', 'anthropic', '--model', 'claude-haiku-4-5', '--base-url', fake.anthropicBaseUrl, '--yes', '--json', '--no-agents-md'],
    { ...xvfb.env, PATH: process.env.PATH, DESKPILOT_HOME: home.home, ANTHROPIC_API_KEY: 'sk-ant-test', OPENAI_API_KEY: '' },
    { stdin },
  );

type Event = Record<string, unknown> & { type: string };

/** A port nothing listens on now (the kernel picks it; closed again for the server to take). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

describe('MCP servers as the agent’s tools (deskpilot run)', () => {
  it('offers allowed tools by server, never a denied server’s; an approved call returns its result to the model', async () => {
    const note = path.join(files, 'note.txt');
    writeFileSync(note, 'contents of the note: Grüße ✓');
    configure({
      fs: { command: process.execPath, args: [FS_SERVER, files], approval: 'ask' },
      ev: { command: process.execPath, args: [EVERYTHING, 'stdio'], approval: 'auto', allowTools: ['echo'] },
      secret: { command: process.execPath, args: [EVERYTHING, 'stdio'], approval: 'deny' },
    });
    const seen: FakeRequest[] = [];
    fake.script(
      (req) => {
        seen.push(req);
        return { text: 'Reading the note.', toolCalls: [{ name: 'fs__read_text_file', input: { path: note } }] };
      },
      (req) => {
        seen.push(req);
        return { text: 'Echo.', toolCalls: [{ name: 'ev__echo', input: { message: 'héllo' } }] };
      },
      (req) => {
        seen.push(req);
        return { text: 'Done.', toolCalls: [finish(true, 'read it')] };
      },
    );
    // --yes is policy auto, but the fs server's approval is ask: the terminal is asked once (y).
    const cli = run('y\n');
    const { code } = await cli.exit;
    expect(code, cli.stderr()).toBe(0);
    const names = seen[0]!.toolNames;
    expect(names).toEqual(expect.arrayContaining(['fs__read_text_file', 'fs__list_allowed_directories', 'ev__echo']));
    expect(names.filter((n) => n.startsWith('ev__'))).toEqual(['ev__echo']);
    expect(names.filter((n) => n.startsWith('secret__'))).toEqual([]);
    expect(seen[1]!.toolResults.at(-1)?.text).toContain('contents of the note: Grüße ✓');
    expect(seen[2]!.toolResults.at(-1)?.text).toContain('héllo');

    const events = cli.events() as Event[];
    const asked = events.filter((e) => e.type === 'approval_requested');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ decision: { verdict: 'ask', rule: 'mcp:ask:fs' } });
    const executed = events.filter((e) => e.type === 'action_executed');
    expect(executed).toEqual([
      expect.objectContaining({ ok: true, action: { type: 'mcp_call', server: 'fs', tool: 'read_text_file', arguments: { path: note } }, by: { kind: 'person', detail: 'cli' } }),
      expect.objectContaining({ ok: true, action: expect.objectContaining({ server: 'ev', tool: 'echo' }), by: { kind: 'mode', detail: 'auto' } }),
    ]);
    expect(String(executed[0]!.output)).toContain('contents of the note');
  }, 120_000);

  it('reaches a server over streamable HTTP (url and headers): its tool is offered and a call returns its result to the model', async () => {
    // The everything server in its streamable HTTP mode, on a free port of this machine.
    const port = await freePort();
    const server = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
    let serverLog = '';
    let closeFront = () => undefined as unknown;
    server.stderr.setEncoding('utf8').on('data', (d: string) => (serverLog += d));
    try {
      await until(() => serverLog.includes(`listening on port ${port}`), 30_000, `the everything server on port ${port} (${serverLog})`);
      // In front of it, a pass-through that notes the headers each request came with.
      const headersSeen: string[] = [];
      const front = createHttpServer((req, res) => {
        headersSeen.push(String(req.headers['x-deskpilot-test']));
        const upstream = httpRequest({ host: '127.0.0.1', port, path: req.url, method: req.method, headers: req.headers }, (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        });
        req.pipe(upstream);
      });
      await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
      closeFront = () => front.close();
      const frontPort = (front.address() as { port: number }).port;
      configure({ web: { url: `http://127.0.0.1:${frontPort}/mcp`, headers: { 'X-DeskPilot-Test': 'streamable' }, approval: 'auto', allowTools: ['echo'] } });
      const seen: FakeRequest[] = [];
      fake.script(
        (req) => {
          seen.push(req);
          return { text: 'Echo over HTTP.', toolCalls: [{ name: 'web__echo', input: { message: 'über HTTP ✓' } }] };
        },
        (req) => {
          seen.push(req);
          return { text: 'Done.', toolCalls: [finish(true, 'echoed')] };
        },
      );
      const cli = run('');
      const { code } = await cli.exit;
      expect(code, `${cli.stderr()}\n${serverLog}`).toBe(0);
      expect(seen[0]!.toolNames.filter((n) => n.startsWith('web__'))).toEqual(['web__echo']);
      expect(seen[1]!.toolResults.at(-1)?.text).toContain('über HTTP ✓');
      const executed = (cli.events() as Event[]).filter((e) => e.type === 'action_executed');
      expect(executed).toEqual([expect.objectContaining({ ok: true, action: expect.objectContaining({ type: 'mcp_call', server: 'web', tool: 'echo' }) })]);
      // Every request (initialize, tools/list, tools/call …) carried the configured header.
      expect(headersSeen.length).toBeGreaterThanOrEqual(3);
      expect(new Set(headersSeen)).toEqual(new Set(['streamable']));
    } finally {
      closeFront();
      server.kill('SIGTERM');
    }
  }, 120_000);

  it('deskpilot mcp list shows each server’s approval, status and offered tools', async () => {
    configure({
      fs: { command: process.execPath, args: [FS_SERVER, files], approval: 'auto', denyTools: ['write_file'] },
      secret: { command: process.execPath, args: [EVERYTHING, 'stdio'], approval: 'deny' },
      broken: { command: path.join(files, 'no-such-server') },
    });
    const cli = runCli(['mcp', 'list', '--json'], { ...xvfb.env, PATH: process.env.PATH, DESKPILOT_HOME: home.home });
    const { code } = await cli.exit;
    expect(code, cli.stderr()).toBe(6);
    const { servers } = JSON.parse(cli.stdout()) as { servers: Array<{ server: string; approval: string; status: string; tools: string[] }> };
    const byName = Object.fromEntries(servers.map((s) => [s.server, s]));
    expect(byName.fs).toMatchObject({ approval: 'auto', status: 'running' });
    expect(byName.fs!.tools).toEqual(expect.arrayContaining(['read_text_file', 'list_allowed_directories']));
    expect(byName.fs!.tools).not.toContain('write_file');
    expect(byName.secret).toMatchObject({ approval: 'deny', status: 'not started (approval deny)', tools: [] });
    expect(byName.broken).toMatchObject({ approval: 'ask', status: expect.stringMatching(/^failed: /), tools: [] });
  }, 60_000);

  it('a server that does not start, and one killed mid-run, are reported as events; the run goes on', async () => {
    configure({
      ev: { command: process.execPath, args: [EVERYTHING, 'stdio'], approval: 'auto', allowTools: ['echo'] },
      broken: { command: path.join(files, 'no-such-server'), approval: 'auto' },
    });
    let afterKill = '';
    let cliPid = 0;
    fake.script(
      async () => {
        // The everything server DeskPilot started: a child of the deskpilot process, ended by its pid.
        const children = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(cliPid)], { encoding: 'utf8' })
          .split('\n')
          .filter((l) => l.includes('server-everything'));
        expect(children).toHaveLength(1);
        const pid = Number(children[0]!.trim().split(/\s+/)[0]);
        process.kill(pid, 'SIGKILL');
        await until(() => !execFileSync('ps', ['-o', 'pid=', '--ppid', String(cliPid)], { encoding: 'utf8' }).includes(String(pid)), 10_000, 'the server to exit');
        return { text: 'Echo.', toolCalls: [{ name: 'ev__echo', input: { message: 'anyone there?' } }] };
      },
      (req) => {
        afterKill = req.toolResults.at(-1)?.text ?? '';
        return { text: 'Done without it.', toolCalls: [finish(true, 'went on')] };
      },
    );
    const cli = run('');
    cliPid = cli.child.pid!;
    const { code } = await cli.exit;
    expect(code, cli.stderr()).toBe(0);
    const errors = (cli.events() as Event[]).filter((e) => e.type === 'error').map((e) => String(e.message));
    expect(errors).toEqual(expect.arrayContaining([expect.stringMatching(/^MCP server broken did not start: .*the run goes on without its tools/), expect.stringMatching(/^MCP server ev stopped/)]));
    expect(afterKill).toMatch(/not running/);
    expect((cli.events() as Event[]).find((e) => e.type === 'run_ended')).toMatchObject({ status: 'done', summary: 'went on' });
  }, 120_000);
});
