import { useEffect, useState } from 'react';

/**
 * "waiting for claude-sonnet-4-6 · 12 s" while the run waits for the model's answer
 * (issue 13 item 5): a person watching a silent screen can tell a slow model from a hung
 * app. It counts from the screenshot's event time (the service's clock) when that is
 * plausible on this clock — a page opened mid-wait shows the real wait — else from when
 * it was first shown. Whole seconds: the line changes once a second, not 5 times.
 */
export function WaitingForModel({ model, since }: { model: string; since: number }) {
  const [shownAt] = useState(() => {
    const now = Date.now();
    // An hour is longer than any request timeout: beyond it the clocks differ.
    return since <= now && now - since < 3_600_000 ? since : now;
  });
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(t);
  }, []);
  const seconds = Math.max(0, Math.floor((now - shownAt) / 1_000));
  return (
    <p className="waiting-model muted" data-testid="waiting-model" role="status" aria-live="off">
      <span className="spinner" aria-hidden="true" />
      waiting for {model || 'the model'} <strong data-testid="waiting-seconds">{seconds} s</strong>
    </p>
  );
}
