import { useEffect, useState } from 'react';
import type { PolicyMode } from '../../shared/approvals.js';
import { POLICY_TITLES, POLICY_WORDS } from '../../shared/labels.js';
import { PROVIDER_LIST } from '../../shared/providers.js';
import { useApp, useClient } from '../bridge/context.js';
import { useConnectionTest } from '../lib/connection-test.js';

/**
 * The first screen explains itself (issue 34 item 8): shown while no run was ever made
 * (History is empty) until the person closes it. Three things: is the key there and does
 * the model answer (the same connection check as the task box), one safe sample task put
 * in the box to read and start, and one line on each approval policy.
 */

export const SAMPLE_TASK = 'Open a text editor, type “Hello from DeskPilot”, and stop before saving.';
const DISMISSED = 'deskpilot.firstRunClosed';
const ORDER: PolicyMode[] = ['ask', 'risky', 'auto'];
const POLICY_HINTS: Record<PolicyMode, string> = {
  ask: 'the safe start: you see each step before it runs.',
  risky: 'routine steps run; a key chord that quits, a command, a risky click waits for you.',
  auto: 'for tasks you trust in a sandbox or a virtual desktop; Stop (X or Esc) still ends it.',
};

function wasClosed(): boolean {
  try {
    return localStorage.getItem(DISMISSED) === '1';
  } catch {
    return false; // storage off (a private window): shown until closed in this page
  }
}

export function FirstRun() {
  const client = useClient();
  const settings = useApp((s) => s.settings);
  const setDraft = useApp((s) => s.setDraft);
  const navigate = useApp((s) => s.navigate);
  const canStoreKeys = useApp((s) => s.canStoreKeys);
  const [firstTime, setFirstTime] = useState<boolean | null>(null);
  const [closed, setClosed] = useState(wasClosed);
  const profile = settings?.config.defaultProfile ?? '';
  const { check, run: testConnection } = useConnectionTest(profile);

  useEffect(() => {
    if (closed) return;
    let live = true;
    client
      .call('sessions.list', {})
      .then((r) => live && setFirstTime(r.sessions.length === 0))
      // History that cannot be read is not a first run to explain; the composer still works.
      .catch(() => live && setFirstTime(false));
    return () => {
      live = false;
    };
  }, [client, closed]);

  if (closed || !firstTime || !settings) return null;
  const key = settings.profileKeys?.[profile];
  const described = settings.config.profiles[profile];
  const close = () => {
    try {
      localStorage.setItem(DISMISSED, '1');
    } catch {
      // storage off: closed for this page only
    }
    setClosed(true);
  };

  return (
    <section className="panel first-run" aria-labelledby="first-run-title" data-testid="first-run">
      <h2 id="first-run-title">Getting started</h2>
      <ol className="first-run-steps">
        <li>
          <strong>Your model.</strong>{' '}
          {described ? (
            <>
              Profile “{profile}”: {PROVIDER_LIST.find((d) => d.family === described.provider)?.label ?? described.provider}, model {described.model}.{' '}
              {key && !key.ready ? (
                <span className="notice-inline" data-testid="first-run-key">
                  No API key yet ({key.keyEnv ?? 'its key variable'}).{' '}
                  <button type="button" className="link" onClick={() => navigate('settings')}>
                    {canStoreKeys ? 'Add one in Settings' : 'How to set it'}
                  </button>
                </span>
              ) : (
                <span data-testid="first-run-key">Key found. </span>
              )}
            </>
          ) : (
            <span className="notice-inline" id="first-run-no-profile" data-testid="first-run-no-profile">
              No profile “{profile}” in your settings: add one in Settings.{' '}
            </span>
          )}
          {/* Nothing to check without the profile (the check asked the service for a profile it has not got); the words before it say why. */}
          <button
            type="button"
            onClick={() => void testConnection()}
            disabled={check.busy || !described || (key !== undefined && !key.ready)}
            aria-describedby={described ? undefined : 'first-run-no-profile'}
            data-testid="first-run-test"
          >
            {check.busy ? 'Checking…' : 'Check the connection'}
          </button>
          {check.message && (
            <span className={check.ok ? 'ok' : 'notice-inline'} role="status" data-testid="first-run-check">
              {' '}
              {check.ok ? '✓ ' : '✗ '}
              {check.message}
            </span>
          )}
        </li>
        <li>
          <strong>A first task.</strong> Describe what to do on this desktop in plain words in the task box, or{' '}
          <button type="button" className="link" onClick={() => setDraft({ task: SAMPLE_TASK, policy: 'ask', model: '' })} data-testid="first-run-sample">
            put a sample task in the box
          </button>{' '}
          (it asks before every step).
        </li>
        <li>
          <strong>How much it asks</strong> (Policy, in the task box):
          <ul className="policy-lines">
            {ORDER.map((mode) => (
              <li key={mode} data-testid={`first-run-policy-${mode}`}>
                <span className={`policy-name policy-${mode}`}>{POLICY_TITLES[mode]}</span> {POLICY_WORDS[mode]} — {POLICY_HINTS[mode]}
              </li>
            ))}
          </ul>
        </li>
      </ol>
      <div className="buttons">
        <button type="button" onClick={close} data-testid="first-run-close">
          Got it, hide this
        </button>
      </div>
    </section>
  );
}
