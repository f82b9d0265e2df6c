import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTask, parseTask } from '../../../src/main/eval/task/index.js';

// Real OSWorld task files (fixtures/osworld/README.md names their source). Each needs something
// only OSWorld's Ubuntu VM has, so each is skipped — with the reason naming the part — never run.
const dir = path.join(import.meta.dirname, 'fixtures/osworld');
const file = (id: string) => path.join(dir, `${id}.json`);

describe('real OSWorld task files', () => {
  it('skips the notifications task for its pyautogui setup step, naming config[1]', async () => {
    const loaded = await loadTask(file('f9be0997-4b7c-45c5-b05c-4612b44a6118'));
    expect(loaded).toMatchObject({ ok: false, id: 'f9be0997-4b7c-45c5-b05c-4612b44a6118' });
    if (loaded.ok) throw new Error('unreachable');
    expect(loaded.skip).toBe("config[1]: the command drives the screen with pyautogui inside OSWorld's VM");
    expect(loaded.instruction).toContain('Do not disturb');
  });

  it('skips a task whose metric has no port, naming the metric', async () => {
    const loaded = await loadTask(file('b6781586-6346-41cd-935a-a6b1487918fc'));
    if (loaded.ok) throw new Error('expected a skip');
    expect(loaded.skip).toContain('evaluator.func: metric "is_utc_0" is not supported');
  });

  it('lists every unsupported part of the permissions task, and accepts its download, activate_window and postconfig', async () => {
    const loaded = await loadTask(file('4d117223-a354-47fb-8b45-62ab1390a95f'));
    if (loaded.ok) throw new Error('expected a skip');
    // Only the two pyautogui steps stop it: download (cache), activate_window, postconfig and check_include_exclude are supported.
    expect(loaded.skip).toBe("config[3]: the command drives the screen with pyautogui inside OSWorld's VM; config[5]: the command drives the screen with pyautogui inside OSWorld's VM");
  });

  it('skips the Calc task for sheet_print (and its pyautogui postconfig), not for multi vm_file or cloud_file', async () => {
    const loaded = await loadTask(file('0bf05a7d-b28b-44d2-955a-50b41e24012a'));
    if (loaded.ok) throw new Error('expected a skip');
    expect(loaded.skip).toContain("evaluator.postconfig[2]: the command drives the screen with pyautogui inside OSWorld's VM");
    expect(loaded.skip).toContain('evaluator.options.rules[0]: compare_table rule "sheet_print" is not supported');
    expect(loaded.skip).not.toContain('vm_file');
    expect(loaded.skip).not.toContain('cloud_file');
  });

  it('runs the notifications task once its pyautogui click is taken out: the format carries over as it is', async () => {
    const json = JSON.parse(await readFile(file('f9be0997-4b7c-45c5-b05c-4612b44a6118'), 'utf8'));
    json.config.splice(1, 1);
    const loaded = parseTask(json, 'adapted.json');
    if (!loaded.ok) throw new Error(loaded.skip);
    expect(loaded.task.config).toEqual([{ type: 'execute', parameters: { command: 'gsettings set org.gnome.desktop.notifications show-banners true', shell: true } }]);
    expect(loaded.task.evaluator).toEqual({
      kind: 'checks',
      conj: 'and',
      postconfig: [],
      checks: [
        {
          func: 'exact_match',
          result: { type: 'vm_command_line', command: 'gsettings get org.gnome.desktop.notifications show-banners', shell: true },
          expected: { type: 'rule', rules: { expected: 'false\n' } },
          options: {},
        },
      ],
    });
    expect(loaded.task.source).toBe('https://help.ubuntu.com/lts/ubuntu-help/shell-notifications.html.en');
    expect(loaded.task.relatedApps).toEqual(['os']);
  });
});
