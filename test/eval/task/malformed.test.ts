import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTask, TaskFileError } from '../../../src/main/eval/task/index.js';

// A task file that is not a task throws TaskFileError naming the file and the field;
// the message is what `deskpilot eval` prints.
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'eval-malformed-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const good = () => ({
  id: 'demo',
  instruction: 'Write hello into ~/out.txt',
  config: [{ type: 'execute', parameters: { command: 'rm -f ~/out.txt', shell: true } }],
  evaluator: { func: 'exact_match', result: { type: 'vm_command_line', command: 'cat out.txt', shell: true }, expected: { type: 'rule', rules: { expected: 'hello\n' } } },
});

async function rejection(name: string, content: unknown): Promise<TaskFileError> {
  const file = path.join(dir, name);
  await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content));
  const error = await loadTask(file).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof TaskFileError)) throw new Error(`expected a TaskFileError, got ${String(error)}`);
  expect(error.file).toBe(file);
  expect(error.message.startsWith(`${file}: ${error.field}: `)).toBe(true);
  return error;
}

describe('malformed task files', () => {
  it('a well-formed file loads (the cases below differ from it in one field)', async () => {
    const file = path.join(dir, 'good.json');
    await writeFile(file, JSON.stringify(good()));
    expect((await loadTask(file)).ok).toBe(true);
  });

  it.each([
    ['not JSON', '{"id": ', '(file)', 'is not JSON'],
    ['no id', { ...good(), id: undefined }, 'id', 'expected string'],
    ['empty instruction', { ...good(), instruction: '' }, 'instruction', 'must not be empty'],
    ['no evaluator', { ...good(), evaluator: undefined }, 'evaluator', 'expected object'],
    ['execute without command', { ...good(), config: [{ type: 'execute', parameters: { shell: true } }] }, 'config[0].parameters.command', ''],
    ['sleep with text seconds', { ...good(), config: [{ type: 'sleep', parameters: { seconds: 'two' } }] }, 'config[0].parameters.seconds', 'expected number'],
    ['launch with an unknown parameter', { ...good(), config: [{ type: 'launch', parameters: { command: ['xcalc'], detach: true } }] }, 'config[0].parameters', 'detach'],
    ['download without url', { ...good(), config: [{ type: 'download', parameters: { files: [{ path: '~/a.txt' }] } }] }, 'config[0].parameters.files[0].url', ''],
    ['step without type', { ...good(), config: [{ parameters: {} }] }, 'config[0].type', ''],
    ['conj neither and nor or', { ...good(), evaluator: { ...good().evaluator, conj: 'xor' } }, 'evaluator.conj', ''],
    ['func list longer than result list', { ...good(), evaluator: { ...good().evaluator, func: ['exact_match', 'exact_match'], result: [good().evaluator.result], expected: [good().evaluator.expected, good().evaluator.expected] } }, 'evaluator.result', 'has 1 entries for 2 funcs'],
    ['func list with one result object', { ...good(), evaluator: { ...good().evaluator, func: ['exact_match', 'exact_match'] } }, 'evaluator.result', 'must be a list of 2 getters'],
    ['infeasible inside a func list', { ...good(), evaluator: { func: ['infeasible', 'exact_match'] } }, 'evaluator.func', 'whole evaluator'],
    ['vm_command_line without command', { ...good(), evaluator: { ...good().evaluator, result: { type: 'vm_command_line', shell: true } } }, 'evaluator.result.command', ''],
    ['exact_match rule without expected', { ...good(), evaluator: { ...good().evaluator, expected: { type: 'rule', rules: { want: 'x' } } } }, 'evaluator.expected.rules.expected', 'is required by exact_match'],
    ['exact_match without result', { ...good(), evaluator: { func: 'exact_match', expected: good().evaluator.expected } }, 'evaluator.result', 'is required'],
    ['literal_match with an unknown option', { ...good(), evaluator: { ...good().evaluator, func: 'literal_match', options: { strip: true } } }, 'evaluator.options', 'strip'],
    ['compare_text_file over command output', { ...good(), evaluator: { ...good().evaluator, func: 'compare_text_file', expected: { type: 'cache_file', path: 'gold.txt' } } }, 'evaluator.result', 'reads one file'],
    ['compare_table without rules', { ...good(), evaluator: { func: 'compare_table', result: { type: 'vm_file', path: '~/a.xlsx', dest: 'a.xlsx' }, options: {} } }, 'evaluator.options.rules', ''],
    ['sheet_data without sheet_idx1', { ...good(), evaluator: { func: 'compare_table', result: { type: 'vm_file', path: '~/a.xlsx', dest: 'a.xlsx' }, options: { rules: [{ type: 'sheet_data', sheet_idx0: 0 }] } } }, 'evaluator.options.rules[0].sheet_idx1', ''],
    ['vm_file gives out of range', { ...good(), evaluator: { func: 'compare_table', result: { type: 'vm_file', path: ['~/a.xlsx'], dest: ['a.xlsx'], multi: true, gives: [2] }, options: { rules: [{ type: 'sheet_name' }] } } }, 'evaluator.result.gives', '2 is not the index'],
    ['check_include_exclude with a non-list include', { ...good(), evaluator: { ...good().evaluator, func: 'check_include_exclude', expected: { type: 'rule', rules: { include: 'hello' } } } }, 'evaluator.expected.rules.include', 'list of strings'],
  ])('%s → names %s', async (name, content, field, detail) => {
    const error = await rejection(`${name.replace(/\W+/g, '-')}.json`, content);
    expect(error.field).toBe(field);
    expect(error.detail).toContain(detail);
  });

  it('a missing file and a huge file are refused with the file named', async () => {
    const missing = path.join(dir, 'absent.json');
    await expect(loadTask(missing)).rejects.toThrow(`${missing}: (file): cannot be read`);
    const huge = path.join(dir, 'huge.json');
    await writeFile(huge, ' '.repeat(1024 * 1024 + 1));
    await expect(loadTask(huge)).rejects.toThrow(/huge\.json: \(file\): is 1048577 bytes/);
  });

  it('an unsupported step is a skip, not an error, even beside a malformed-looking parameter list', async () => {
    const file = path.join(dir, 'chrome.json');
    await writeFile(file, JSON.stringify({ ...good(), config: [{ type: 'chrome_open_tabs', parameters: { urls_to_open: ['https://example.com'] } }] }));
    expect(await loadTask(file)).toMatchObject({ ok: false, skip: 'config[0]: setup step "chrome_open_tabs" is not supported' });
  });
});
