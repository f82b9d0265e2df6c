import { useEffect, useRef, useState } from 'react';
import type { PolicyMode } from '../../shared/approvals.js';
import { POLICY_TITLES } from '../../shared/labels.js';
import { useApp, useClient } from '../bridge/context.js';
import { useConnectionTest } from '../lib/connection-test.js';
import { keepInView } from '../lib/keep-in-view.js';
import { SkillPicker } from './SkillPicker.js';

/** The task box with profile, model, policy and skill selectors. Ctrl/⌘+Enter starts. */
// Over 120 lines because it is one form: a state hook per field and the form's JSX, the
// fields read each other (profile → model placeholder, key → Start).
export function Composer() {
  const client = useClient();
  const settings = useApp((s) => s.settings);
  const active = useApp((s) => s.activeRunId);
  const activeState = useApp((s) => s.activeState);
  const reportError = useApp((s) => s.reportError);
  const profiles = Object.keys(settings?.config.profiles ?? {});
  const [task, setTask] = useState('');
  const [profile, setProfile] = useState('');
  const [model, setModel] = useState('');
  // The header names this choice while no run is live: one value, in the store.
  const policy = useApp((s) => s.composerPolicy);
  const setPolicy = useApp((s) => s.setComposerPolicy);
  const [maxSteps, setMaxSteps] = useState('');
  const [skills, setSkills] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  // "Run again": the ended run's task, policy and model, to edit before Start.
  const draft = useApp((s) => s.draft);
  const setDraft = useApp((s) => s.setDraft);
  const taskRef = useRef<HTMLTextAreaElement>(null);
  const profileRef = useRef<HTMLSelectElement>(null);
  const startRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!draft) return;
    setTask(draft.task);
    setModel(draft.model);
    setDraft(null);
    const field = (draft.focus === 'profile' ? profileRef : taskRef).current;
    field?.focus({ preventScroll: true });
    // The field to edit and Start both in view: at 900×700 the end card above the box put
    // Start ~200 px under the fold after Run again or Change model.
    if (field && startRef.current) keepInView(field, startRef.current);
  }, [draft, setDraft]);
  const running = !!active && activeState !== 'ended';
  const canStoreKeys = useApp((s) => s.canStoreKeys);
  const setTab = useApp((s) => s.setTab);
  // First run: Start stays off until the chosen profile has a key (the service's own lookup).
  const chosen = profile || settings?.config.defaultProfile || '';
  const keyState = settings?.profileKeys?.[chosen];
  const noKey = keyState !== undefined && !keyState.ready;
  // A default profile the settings do not hold (or none at all): nothing to start or test with.
  const noProfile = settings !== null && !settings.config.profiles[chosen];

  const { check: ping, run: testConnection } = useConnectionTest(chosen);

  const start = async () => {
    if (!task.trim() || busy || running || noKey || noProfile) return;
    setBusy(true);
    try {
      await client.call('run.start', {
        task: task.trim(),
        ...(profile ? { profile } : {}),
        ...(model.trim() ? { model: model.trim() } : {}),
        ...(policy ? { policy } : {}),
        ...(Number(maxSteps) > 0 ? { limits: { maxSteps: Math.floor(Number(maxSteps)) } } : {}),
        ...(skills.length ? { skills } : {}),
      });
      // The box starts over: the next run's policy is the configured one again unless chosen
      // (a one-off Auto never carries into the next task unasked; Run again brings it back).
      setTask('');
      setPolicy('');
      reportError(null);
    } catch (err) {
      reportError(`Could not start: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      setBusy(false);
    }
  };

  const def = settings?.config.defaultProfile;
  const profileModel = chosen ? settings?.config.profiles[chosen]?.model : undefined;
  // A control that is off says why, next to it (issue 34 item 8): the first reason that applies.
  const startWhy = running
    ? 'A run is in progress: stop it to start another.'
    : noProfile
      ? chosen
        ? `No profile “${chosen}” in your settings: add one in Settings.`
        : 'No model profile yet: add one in Settings.'
      : noKey
        ? `No API key for profile “${chosen}” (see below).`
        : busy
          ? 'Starting…'
          : !task.trim()
            ? 'Describe a task above to start.'
            : null;
  return (
    <form
      className="panel composer"
      aria-label="New task"
      onSubmit={(e) => {
        e.preventDefault();
        void start();
      }}
    >
      <label className="field grow">
        <span className="sr-only">Task</span>
        <textarea
          data-testid="task-input"
          ref={taskRef}
          rows={3}
          placeholder="Describe the task, e.g. “open the calculator and compute 2+3”"
          value={task}
          onChange={(e) => setTask(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              void start();
            }
          }}
        />
      </label>
      <SkillPicker selected={skills} onChange={setSkills} />
      <div className="composer-row">
        <label className="field">
          Profile
          <select ref={profileRef} value={profile} onChange={(e) => setProfile(e.target.value)} data-testid="profile-select">
            <option value="">{def ? `default (${def})` : 'default'}</option>
            {profiles.map((p) => (
              <option key={p} value={p}>
                {p} — {settings!.config.profiles[p]!.provider}/{settings!.config.profiles[p]!.model}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          Model
          <input value={model} placeholder={profileModel ? `${profileModel} (the profile’s)` : 'the profile’s model'} onChange={(e) => setModel(e.target.value)} data-testid="model-input" />
        </label>
        <label className="field">
          Policy
          <select value={policy} onChange={(e) => setPolicy(e.target.value as PolicyMode | '')} data-testid="policy-select">
            <option value="">{POLICY_TITLES[settings?.config.policy.mode ?? 'ask']} (your setting)</option>
            <option value="ask">{POLICY_TITLES.ask}</option>
            <option value="risky">{POLICY_TITLES.risky}</option>
            <option value="auto">{POLICY_TITLES.auto} (never asks)</option>
          </select>
        </label>
        <label className="field narrow">
          Max steps
          <input inputMode="numeric" value={maxSteps} placeholder={String(settings?.config.limits.maxSteps ?? 50)} onChange={(e) => setMaxSteps(e.target.value.replace(/\D/g, ''))} />
        </label>
        <div className="composer-actions">
          <button
            type="button"
            onClick={() => void testConnection()}
            disabled={ping.busy || noKey || noProfile}
            data-testid="test-connection"
            title={noProfile ? 'No model profile to test: add one in Settings' : noKey ? `No API key for profile “${chosen}” to test with` : 'Sends one tiny request to the profile’s model: is the key accepted, is the server there?'}
          >
            {ping.busy ? 'Testing…' : 'Test connection'}
          </button>
          <button ref={startRef} type="submit" className="primary" disabled={startWhy !== null} data-testid="start-run" aria-describedby={startWhy ? 'start-why' : undefined}>
            Start <kbd>Ctrl+Enter</kbd>
          </button>
        </div>
      </div>
      {noKey && (
        <p className="notice" role="alert" data-testid="no-key">
          No API key for profile “{chosen}”.{' '}
          {canStoreKeys ? (
            <>
              Store one in{' '}
              <button type="button" className="link" onClick={() => setTab('settings')}>
                Settings
              </button>{' '}
              or set {keyState?.keyEnv ?? 'the key variable'} in the environment.
            </>
          ) : (
            <>
              Set <code>{keyState?.keyEnv ?? 'the key variable'}</code> in the environment of <code>deskpilot serve</code> and restart it:{' '}
              <button type="button" className="link" onClick={() => setTab('settings')} data-testid="no-key-how">
                how, step by step
              </button>
              .
            </>
          )}
        </p>
      )}
      {ping.message && (
        <p className={ping.ok ? 'ok' : 'notice'} role="status" data-testid="connection-result">
          {ping.ok ? '✓ ' : '✗ '}
          {ping.message}
        </p>
      )}
      {startWhy && (
        <p className="muted start-why" id="start-why" data-testid="start-why">
          {startWhy}
        </p>
      )}
    </form>
  );
}
