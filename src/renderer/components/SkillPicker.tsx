import { useEffect, useState } from 'react';
import type { CommandOutput } from '../../shared/bridge.js';
import { useClient } from '../bridge/context.js';

type SkillList = CommandOutput<'skills.list'>;

/** The loader's messages often start with the file's path already; say it once. */
function withoutFile(message: string, file: string): string {
  return message.startsWith(`${file}:`) ? message.slice(file.length + 1).trim() : message;
}

const SOURCE_LABEL = { project: 'project', user: 'user', builtin: 'built-in' } as const;

/**
 * The skills a run can use, as toggle buttons (Tab to reach, Space/Enter to toggle,
 * aria-pressed says which are on). SKILL.md files that failed to load are listed
 * discreetly behind a disclosure, so a broken file is findable without shouting.
 */
/**
 * The list each client last answered. The task box (and this picker in it) is mounted
 * anew whenever a run ends; drawn empty until skills.list answered, the box grew by the
 * list's height a moment later (62 px with no skills) and pushed Start, which Run again
 * and Change model had just brought into view, under the fold at 900×700. The last list
 * is drawn at once and replaced by the fresh answer.
 */
const lastList = new WeakMap<object, SkillList>();

export function SkillPicker({ selected, onChange }: { selected: readonly string[]; onChange: (names: string[]) => void }) {
  const client = useClient();
  const [list, setList] = useState<SkillList | null>(() => lastList.get(client) ?? null);
  const [failed, setFailed] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    client
      .call('skills.list', {})
      .then((r) => {
        lastList.set(client, r);
        if (live) setList(r);
      })
      .catch((e: unknown) => live && setFailed(e instanceof Error ? e.message : String(e)));
    return () => {
      live = false;
    };
  }, [client]);

  const toggle = (name: string) => onChange(selected.includes(name) ? selected.filter((n) => n !== name) : [...selected, name]);

  if (failed) return <p className="muted skills-status">Skills unavailable: {failed}</p>;
  return (
    <fieldset className="skills" data-testid="skills">
      <legend>
        Skills <span className="muted">— know-how added to this run: {selected.length ? `${selected.length} added` : 'none yet (click one to add it)'}</span>
      </legend>
      {/* The first answer still on its way: a line in the place the list takes, so little moves when it comes. */}
      {!list ? (
        <p className="muted skills-status">Looking for skills…</p>
      ) : list.skills.length === 0 ? (
        <p className="muted skills-status">No skills found.</p>
      ) : (
        <ul className="skill-list">
          {list.skills.map((s) => {
            const on = selected.includes(s.name);
            return (
              <li key={s.name}>
                <button
                  type="button"
                  className={`skill${on ? ' on' : ''}`}
                  aria-pressed={on}
                  title={s.description}
                  data-testid={`skill-${s.name}`}
                  onClick={() => toggle(s.name)}
                >
                  <span className="skill-head">
                    <span className="skill-check" aria-hidden="true">
                      {on ? '✓' : '+'}
                    </span>
                    <span className="skill-name">{s.name}</span>
                    <span className={`badge badge-${s.source}`}>{SOURCE_LABEL[s.source]}</span>
                  </span>
                  <span className="skill-desc muted">{s.description}</span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {list && list.errors.length > 0 && (
        <details className="skill-errors" data-testid="skill-errors">
          <summary>
            {list.errors.length} skill {list.errors.length === 1 ? 'file' : 'files'} could not be loaded
          </summary>
          <ul>
            {list.errors.map((e) => (
              <li key={e.file}>
                <span className="mono">{e.file}</span>: {withoutFile(e.message, e.file)}
              </li>
            ))}
          </ul>
        </details>
      )}
    </fieldset>
  );
}
