// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Providers } from '../../src/renderer/bridge/context.js';
import { Composer } from '../../src/renderer/components/Composer.js';
import { createAppStore } from '../../src/renderer/store/app-store.js';
import type { CommandOutput, StartRunInput } from '../../src/shared/bridge.js';
import { TestClient } from './fixtures.js';

afterEach(cleanup);

const flush = () => act(async () => void (await new Promise((r) => setTimeout(r, 0))));

const SKILLS: CommandOutput<'skills.list'> = {
  skills: [
    { name: 'qa', description: 'Test an app like a QA engineer and give a verdict', source: 'builtin' },
    { name: 'spreadsheet', description: 'Fill in LibreOffice Calc sheets', source: 'user' },
    { name: 'deploy-notes', description: 'Our release checklist', source: 'project' },
  ],
  errors: [{ file: '/home/u/.deskpilot/skills/broken/SKILL.md', message: 'missing "description" in front matter' }],
};

async function mount(list: CommandOutput<'skills.list'> = SKILLS) {
  const client = new TestClient();
  client.answers['skills.list'] = () => list;
  const store = createAppStore(client);
  render(
    <Providers client={client} store={store}>
      <Composer />
    </Providers>,
  );
  await flush();
  return { client };
}

const typeTask = (text: string) => act(() => void fireEvent.change(screen.getByTestId('task-input'), { target: { value: text } }));
const start = async () => {
  act(() => void fireEvent.click(screen.getByTestId('start-run')));
  await flush();
};

describe('composer: skills', () => {
  it('lists the skills with description and source badge as toggle buttons', async () => {
    const { client } = await mount();
    expect(client.callsOf('skills.list')).toEqual([{}]);
    const qa = screen.getByTestId('skill-qa');
    expect(qa.tagName).toBe('BUTTON');
    expect(qa.getAttribute('aria-pressed')).toBe('false');
    expect(qa.textContent).toContain('Test an app like a QA engineer');
    expect(qa.textContent).toContain('built-in');
    expect(screen.getByTestId('skill-spreadsheet').textContent).toContain('user');
    expect(screen.getByTestId('skill-deploy-notes').textContent).toContain('project');
  });

  it('sends the selected skills (and only those) in run.start', async () => {
    const { client } = await mount();
    act(() => void fireEvent.click(screen.getByTestId('skill-qa')));
    act(() => void fireEvent.click(screen.getByTestId('skill-deploy-notes')));
    act(() => void fireEvent.click(screen.getByTestId('skill-spreadsheet')));
    act(() => void fireEvent.click(screen.getByTestId('skill-qa'))); // off again
    expect(screen.getByTestId('skill-qa').getAttribute('aria-pressed')).toBe('false');
    expect(screen.getByTestId('skill-deploy-notes').getAttribute('aria-pressed')).toBe('true');
    typeTask('write the release notes');
    await start();
    const sent = client.callsOf('run.start') as StartRunInput[];
    expect(sent).toHaveLength(1);
    expect(sent[0]!.task).toBe('write the release notes');
    expect(sent[0]!.skills).toEqual(['deploy-notes', 'spreadsheet']);
  });

  it('sends no skills field when none is selected', async () => {
    const { client } = await mount();
    typeTask('compute 2+3');
    await start();
    const sent = client.callsOf('run.start') as StartRunInput[];
    expect(sent).toHaveLength(1);
    expect(sent[0]).not.toHaveProperty('skills');
  });

  it('shows load errors discreetly: file and message behind a disclosure', async () => {
    await mount();
    const errors = screen.getByTestId('skill-errors');
    expect(errors.tagName).toBe('DETAILS');
    expect((errors as HTMLDetailsElement).open).toBe(false);
    expect(errors.querySelector('summary')!.textContent).toBe('1 skill file could not be loaded');
    expect(errors.textContent).toContain('/home/u/.deskpilot/skills/broken/SKILL.md');
    expect(errors.textContent).toContain('missing "description" in front matter');
  });

  it('no error disclosure when every skill loaded', async () => {
    await mount({ skills: SKILLS.skills, errors: [] });
    expect(screen.queryByTestId('skill-errors')).toBeNull();
  });
});
