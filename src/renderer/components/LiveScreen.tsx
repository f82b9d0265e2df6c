import { useEffect } from 'react';
import { useApp, useClient } from '../bridge/context.js';
import { HeldBadge } from './HeldBadge.js';

/**
 * The live screen: thumbnails pushed a few times a second while this view is
 * visible; the stream is switched off when the page is hidden or the view unmounts.
 */
export function LiveScreen() {
  const client = useClient();
  const frame = useApp((s) => s.frame);
  const connected = useApp((s) => s.connected);
  const held = useApp((s) => s.run?.held);

  useEffect(() => {
    let on = false;
    const sync = () => {
      const want = document.visibilityState === 'visible';
      if (want === on) return;
      on = want;
      client.call('screen.watch', { on }).catch(() => (on = !want));
    };
    sync();
    document.addEventListener('visibilitychange', sync);
    return () => {
      document.removeEventListener('visibilitychange', sync);
      if (on) client.call('screen.watch', { on: false }).catch(() => {});
    };
  }, [client, connected]);

  return (
    <section className="panel live" aria-label="Live screen">
      <h2>
        Live screen {frame && <span className="muted live-dot" title={new Date(frame.at).toLocaleTimeString()}>●</span>}
        <HeldBadge held={held} />
      </h2>
      {frame?.desktop && (
        <p className="live-desktop" data-testid="live-desktop">
          Runs act on a private {frame.desktop}, not on your screen.
        </p>
      )}
      {frame ? (
        <img className="live-img" data-testid="live-frame" src={frame.url} alt={frame.desktop ? `Live view of the ${frame.desktop} the agent controls` : 'Live view of the screen the agent controls'} width={frame.width} height={frame.height} />
      ) : (
        <div className="live-empty muted">Waiting for the screen…</div>
      )}
    </section>
  );
}
