import { useEffect, useState } from 'react';
import { formatMs } from '../lib/format.js';

/**
 * The auto-approve countdown of the head approval item, ticking. It counts from when
 * this client first showed it (the event's own timestamp is the service's clock,
 * which may differ from this machine's); the parent remounts it per proposal via `key`.
 */
export function Countdown({ ms }: { ms: number }) {
  const [shownAt] = useState(() => Date.now());
  const [now, setNow] = useState(shownAt);
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
