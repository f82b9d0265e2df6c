import { useEffect, useState } from 'react';
import { formatMs } from '../lib/format.js';

/**
 * The auto-approve countdown of the head approval item, ticking. It counts from when
 * the gate started it (`startedAt`, the service's clock) when that is plausible on this
 * machine's clock — so a page reloaded mid-countdown shows what is really left — and
 * otherwise from when this client first showed it (clocks differ, or an old event).
 * The parent remounts it per proposal via `key`.
 */
export function Countdown({ ms, startedAt }: { ms: number; startedAt?: number }) {
  const [shownAt] = useState(() => {
    const now = Date.now();
    return startedAt !== undefined && startedAt <= now && now - startedAt < ms ? startedAt : now;
  });
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 200);
    return () => clearInterval(t);
  }, []);
  const left = Math.max(0, ms - (now - shownAt));
  return (
    <p className="notice countdown" data-testid="countdown" role="timer" aria-live="off">
      {left > 0 ? (
        <>
          Approves itself in <strong>{formatMs(left)}</strong> unless you answer.
        </>
      ) : (
        'Approving itself now…'
      )}
    </p>
  );
}
