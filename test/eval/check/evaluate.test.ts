import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseTask, vmCommand, type ConfigStep, type EvalTask, type VmCommand } from '../../../src/main/eval/task/index.js';
import { evaluate } from '../../../src/main/eval/check/evaluate.js';
import { localFiles } from '../../../src/main/eval/check/local-vm.js';
import { CheckError, type EvalEnv } from '../../../src/main/eval/check/env.js';

// evaluate() over a real end state: a temporary HOME on this machine, real commands run by
// sh with that HOME, real files; only the runner's desktop (DISPLAY) is absent, which no
// getter here needs. Setup and postconfig `execute` steps run the way the runner runs them.
let home: string;
let cache: string;
beforeEach(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'eval-home-'));
  cache = await mkdtemp(path.join(tmpdir(), 'eval-cache-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
  await rm(cache, { recursive: true, force: true });
});

function run(command: VmCommand): Promise<{ stdout: string; stderr: string; exitCode: number | null } | null> {
  const [file, args] = command.shell ? ['/bin/sh', ['-c', command.script, ...command.args]] : [command.argv[0]!, command.argv.slice(1)];
  return new Promise((resolve) => {
    execFile(file, args, { cwd: home, env: { PATH: process.env.PATH, HOME: home }, timeout: 20_000 }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') return resolve(null);
      resolve({ stdout, stderr, exitCode: error ? (error.code as number) : 0 });
    });
  });
}

const ran: string[] = [];
function env(overrides: Partial<EvalEnv> = {}): EvalEnv {
  return {
    home,
    fileCache: cache,
    ...localFiles(),
    run: async (command) => {
      ran.push(command.shell ? command.script : command.argv.join(' '));
      return run(command);
    },
    runSteps: async (steps: ConfigStep[]) => {
      for (const step of steps) {
        if (step.type !== 'execute') throw new Error(`test env runs execute steps only, got ${step.type}`);
        await run(vmCommand(step.parameters.command, step.parameters.shell, home));
      }
    },
    agentSaidInfeasible: false,
    ...overrides,
  };
}

function task(evaluator: Record<string, unknown>): EvalTask {
  const loaded = parseTask({ id: 'task-1', instruction: 'do it', evaluator }, 'inline.json');
  if (!loaded.ok) throw new Error(loaded.skip);
  return loaded.task;
}

const commandIs = (command: string, expected: string) => ({ func: 'exact_match', result: { type: 'vm_command_line', command }, expected: { type: 'rule', rules: { expected } } });

beforeEach(() => {
  ran.length = 0;
});

describe('evaluate: one func over a real end state', () => {
  it('exact_match over vm_command_line: ~ is the task HOME; the output decides', async () => {
    const t = task(commandIs('cat ~/answer.txt', 'hello\n'));
    await writeFile(path.join(home, 'answer.txt'), 'hello\n');
    expect(await evaluate(t, env())).toEqual({ score: 1, detail: "exact_match: 1 — result equals 'hello\\n'" });
    await writeFile(path.join(home, 'answer.txt'), 'hallo\n');
    expect((await evaluate(t, env())).score).toBe(0);
  });

  it('a command that cannot start gives None, as OSWorld: the func scores 0', async () => {
    const out = await evaluate(task(commandIs('no-such-program-xyz', '')), env());
    expect(out).toEqual({ score: 0, detail: "exact_match: 0 — result None is not ''" });
  });

  it('compare_text_file: vm_file from HOME against a cache_file of the task', async () => {
    await mkdir(path.join(cache, 'task-1'));
    await writeFile(path.join(cache, 'task-1', 'gold.txt'), 'line 1\nline 2\n');
    const t = task({ func: 'compare_text_file', result: { type: 'vm_file', path: '/home/user/Desktop/notes.txt', dest: 'notes.txt' }, expected: { type: 'cache_file', path: 'gold.txt' } });
    await mkdir(path.join(home, 'Desktop'));
    expect((await evaluate(t, env())).detail).toContain(`${path.join(home, 'Desktop/notes.txt')} is not there`);
    await writeFile(path.join(home, 'Desktop/notes.txt'), 'line 1\r\nline 2\r\n');
    expect((await evaluate(t, env())).score).toBe(1);
    await writeFile(path.join(home, 'Desktop/notes.txt'), 'line 1\n');
    expect((await evaluate(t, env())).score).toBe(0);
  });

  it('list_directory gives the OSWorld tree; a missing folder gives None', async () => {
    await mkdir(path.join(home, 'cpjpg/sub'), { recursive: true });
    await writeFile(path.join(home, 'cpjpg/b.jpg'), '');
    await writeFile(path.join(home, 'cpjpg/a.jpg'), '');
    const tree = { type: 'directory', name: 'cpjpg', children: [{ type: 'file', name: 'a.jpg' }, { type: 'file', name: 'b.jpg' }, { type: 'directory', name: 'sub', children: [] }] };
    const t = task({ func: 'exact_match', result: { type: 'list_directory', path: '~/cpjpg' }, expected: { type: 'rule', rules: { expected: tree } } });
    expect((await evaluate(t, env())).score).toBe(1);
    await rm(path.join(home, 'cpjpg/b.jpg'));
    expect((await evaluate(t, env())).score).toBe(0);
    await rm(path.join(home, 'cpjpg'), { recursive: true });
    expect((await evaluate(t, env())).detail).toContain('result None');
  });

  it('a reference file the cache lacks, or no --file-cache at all, is an error (CheckError), not a failure', async () => {
    const t = task({ func: 'compare_text_file', result: { type: 'vm_file', path: '~/a.txt', dest: 'a.txt' }, expected: { type: 'cloud_file', path: 'https://example.com/gold.txt', dest: 'gold.txt' } });
    await writeFile(path.join(home, 'a.txt'), 'x');
    await expect(evaluate(t, env())).rejects.toThrow(CheckError);
    await expect(evaluate(t, env())).rejects.toThrow('cloud_file "gold.txt" is not in the file cache');
    await expect(evaluate(t, env({ fileCache: undefined }))).rejects.toThrow('run with --file-cache DIR');
  });
});

describe('evaluate: func lists, postconfig, infeasible (desktop_env.py evaluate)', () => {
  const two = (conj: 'and' | 'or', a: Record<string, unknown>, b: Record<string, unknown>) => ({
    func: [a.func, b.func],
    conj,
    result: [a.result, b.result],
    expected: [a.expected, b.expected],
  });
  const fuzzy = (command: string, expected: string) => ({ func: 'fuzzy_match', result: { type: 'vm_command_line', command, shell: true }, expected: { type: 'rule', rules: { expected } } });

  it('"and": the mean of the scores; a 0 ends it at 0 before the next getter runs', async () => {
    const t = task(two('and', commandIs('echo ok', 'ok\n'), fuzzy('printf abcd', 'abcf')));
    expect((await evaluate(t, env())).score).toBe(0.875);
    const early = task(two('and', commandIs('echo no', 'ok\n'), fuzzy('touch ~/second-ran; printf abcd', 'abcd')));
    ran.length = 0;
    const out = await evaluate(early, env());
    expect(out.score).toBe(0);
    expect(ran).toEqual(['echo no']);
    await expect(readFile(path.join(home, 'second-ran'))).rejects.toThrow();
  });

  it('"or": a 1 ends it at 1; otherwise the max', async () => {
    const t = task(two('or', commandIs('echo ok', 'ok\n'), commandIs('touch ~/second-ran', '')));
    expect((await evaluate(t, env())).score).toBe(1);
    expect(ran).toEqual(['echo ok']);
    const partial = task(two('or', fuzzy('printf ab', 'abcd'), fuzzy('printf zz', 'abcd')));
    expect((await evaluate(partial, env())).score).toBeCloseTo(2 / 3, 10);
  });

  it('postconfig runs before the getters read the end state', async () => {
    const t = task({ ...commandIs('cat ~/exported.txt', 'exported\n'), postconfig: [{ type: 'execute', parameters: { command: 'echo exported > ~/exported.txt', shell: true } }] });
    expect((await evaluate(t, env())).score).toBe(1);
  });

  it('infeasible: 1 only when the agent ended the task as infeasible, after postconfig', async () => {
    const t = task({ func: 'infeasible', postconfig: [{ type: 'execute', parameters: { command: 'touch ~/post', shell: true } }] });
    expect(await evaluate(t, env({ agentSaidInfeasible: true }))).toEqual({ score: 1, detail: 'infeasible: the agent ended the task as infeasible' });
    expect((await evaluate(t, env())).score).toBe(0);
    expect(await readFile(path.join(home, 'post'), 'utf8')).toBe('');
  });

  it('a feasible task the agent called infeasible scores 0 without reading anything', async () => {
    const t = task(commandIs('echo ok', 'ok\n'));
    expect(await evaluate(t, env({ agentSaidInfeasible: true }))).toEqual({ score: 0, detail: 'the agent ended the task as infeasible; it can be done' });
    expect(ran).toEqual([]);
  });
});

describe('evaluate: what it says', () => {
  const fuzzy = (command: string, expected: string) => ({ func: 'fuzzy_match', result: { type: 'vm_command_line', command, shell: true }, expected: { type: 'rule', rules: { expected } } });
  it('joins each func\'s sentence with its score, in order, for and/or lists and their early ends', async () => {
    const both = (conj: 'and' | 'or', a: Record<string, unknown>, b: Record<string, unknown>) => task({ func: [a.func, b.func], conj, result: [a.result, b.result], expected: [a.expected, b.expected] });
    expect((await evaluate(both('and', commandIs('echo ok', 'ok\n'), fuzzy('printf abcd', 'abcf')), env())).detail).toBe(
      "exact_match: 1 — result equals 'ok\\n'; fuzzy_match: 0.750 — result 'abcd' is 75.0% like 'abcf'",
    );
    expect((await evaluate(both('and', commandIs('echo no', 'ok\n'), fuzzy('printf abcd', 'abcf')), env())).detail).toBe("exact_match: 0 — result 'no\\n' is not 'ok\\n'");
    expect((await evaluate(both('or', commandIs('echo ok', 'ok\n'), fuzzy('printf abcd', 'abcf')), env())).detail).toBe("exact_match: 1 — result equals 'ok\\n'");
  });
  it('an infeasible task the agent tried to do says so', async () => {
    expect(await evaluate(task({ func: 'infeasible' }), env())).toEqual({ score: 0, detail: 'infeasible: the task cannot be done, but the agent did not end it as infeasible' });
  });
  it('no postconfig: the step runner is not called at all', async () => {
    const steps: ConfigStep[][] = [];
    await evaluate(task(commandIs('echo ok', 'ok\n')), env({ runSteps: async (s) => void steps.push(s) }));
    expect(steps).toEqual([]);
  });
});
