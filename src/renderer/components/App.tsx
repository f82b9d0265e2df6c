import { useEffect, useState } from 'react';
import { useApp, useClient } from '../bridge/context.js';
import { Activity } from './Activity.js';
import { ApprovalQueue } from './ApprovalQueue.js';
import { Composer } from './Composer.js';
import { FirstRun } from './FirstRun.js';
import { Header } from './Header.js';
import { useModelTrouble } from './ModelTroubleCard.js';
import { History } from './History.js';
import { ProjectInstructions } from './ProjectInstructions.js';
import { QuestionBox } from './QuestionBox.js';
import { RecordPanel } from './RecordPanel.js';
import { Settings } from './Settings.js';
import { Stage, StageSlot } from './Stage.js';
import { Timeline } from './Timeline.js';
import { RunActions } from './RunActions.js';
import { RunSandbox } from './RunSandbox.js';
import { countedSteps, stepsText } from '../store/run-view.js';
import { useApprovalAlert } from '../lib/approval-alert.js';
import { usageText } from '../lib/format.js';
import { pauseText } from '../lib/model-trouble.js';
import { useShortcuts } from '../lib/shortcuts.js';

export function App() {
  const client = useClient();
  const tab = useApp((s) => s.tab);
  const handlePush = useApp((s) => s.handlePush);
  const loadSettings = useApp((s) => s.loadSettings);
  const reportError = useApp((s) => s.reportError);
  const lastError = useApp((s) => s.lastError);
  const run = useApp((s) => s.run);
  const reviewing = useApp((s) => s.reviewing);
  const backToLive = useApp((s) => s.backToLive);
  const recordingNow = useApp((s) => s.recording.state === 'starting' || s.recording.state === 'recording');

  useEffect(() => client.subscribe(handlePush), [client, handlePush]);
  const trouble = useModelTrouble();
  useApprovalAlert(reviewing ? 0 : (run?.pending.length ?? 0), trouble?.kind === 'paused');
  // Esc leaves a past run opened from History for the live view — unless a run is live:
  // then Esc stops it (the header's), wherever the person is looking.
  const liveRun = useApp((s) => !!s.activeRunId && s.activeState !== 'ended');
  useShortcuts(reviewing && !liveRun ? { Escape: () => void backToLive() } : {});
  // The right column is the one large screen (Stage: live, the action waiting, or a picked
  // step); the left column is the task, what waits for you, and the compact step list.
  const hasSteps = !!run && run.stepOrder.length > 0;
  const [slot, setSlot] = useState<HTMLElement | null>(null);
  useEffect(() => {
    loadSettings().catch((e: unknown) => reportError(`settings: ${String(e)}`));
  }, [loadSettings, reportError]);

  return (
    <div className="app">
      <Header />
      {lastError && (
        <div className="banner" role="alert">
          {lastError}
          <button className="icon" aria-label="Dismiss" onClick={() => reportError(null)}>
            ✕
          </button>
        </div>
      )}
      <main>
        <StageSlot.Provider value={slot}>
        {tab === 'run' && (
          <div className="run-view">
            <div className="col-left">
              {reviewing ? (
                <section className="panel review">
                  <h2>Past run</h2>
                  <p className="task-text">{run?.task}</p>
                  <ProjectInstructions instructions={run?.projectInstructions} />
                  <RunSandbox sandbox={run?.sandbox} />
                  <p className="muted">
                    {run?.ended ? `${run.ended.status}: ${run.ended.summary}` : 'not finished'} · {run?.provider}/{run?.model}
                  </p>
                  <div className="buttons">
                    <button onClick={() => void backToLive()} data-testid="back-to-live">
                      Back to live {!liveRun && <kbd>Esc</kbd>}
                    </button>
                  </div>
                  {run?.task && <RunActions run={run} place="review" />}
                </section>
              ) : (
                <>
                  {run && run.state !== 'ended' ? (
                    <section className="panel current-task">
                      {/* The sandbox rides on the heading's line: a line more in this panel puts the card's buttons below the fold at 900×700. */}
                      <h2>
                        Task <RunSandbox sandbox={run.sandbox} />
                      </h2>
                      <p className="task-text" data-testid="current-task">{run.task}</p>
                      <ProjectInstructions instructions={run.projectInstructions} />
                    </section>
                  ) : (
                    <>
                      {/* The run's end comes first, above the box for the next task (issue 34 item 6). */}
                      {run?.ended && (
                        <section className="panel ended" data-testid="run-ended">
                          <h2>Run {run.ended.status}</h2>
                          <p className="task-text">{run.task}</p>
                          <p>{run.ended.summary}</p>
                          <RunSandbox sandbox={run.sandbox} />
                          {run.ended.pausedFor && (
                            // Both things that happened: it was paused (why), and then it ended.
                            <p className="notice" data-testid="run-ended-paused">
                              It was {pauseText(run.ended.pausedFor)} when it {run.ended.status === 'stopped' ? 'was stopped' : `ended (${run.ended.status})`}.
                            </p>
                          )}
                          <p className="muted" data-testid="run-ended-usage">
                            {stepsText(countedSteps(run))} · {usageText(run.total)}
                          </p>
                          <RunActions run={run} place="end" />
                        </section>
                      )}
                      {/* While a person is recorded the task box waits (a run would act on the recorded desktop): the recording comes first. */}
                      {!recordingNow && <Composer />}
                      <RecordPanel />
                    </>
                  )}
                  <QuestionBox />
                  <ApprovalQueue />
                  <Activity />
                </>
              )}
              {(hasSteps || reviewing) && <Timeline />}
            </div>
            <div className="col-right">
              {/* The guide beside the task box, over the screen it will act on: above the box it
                  pushed the box and Start below the fold at 900×700 (the guide is ~530 px tall). */}
              {!reviewing && !recordingNow && !run && <FirstRun />}
              <Stage onSlot={setSlot} />
            </div>
          </div>
        )}
        </StageSlot.Provider>
        {tab === 'history' && <History />}
        {tab === 'settings' && <Settings />}
      </main>
    </div>
  );
}
