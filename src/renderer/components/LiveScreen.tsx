import { useEffect } from 'react';
import { useApp, useClient } from '../bridge/context.js';
import { HeldBadge } from './HeldBadge.js';

/**
 * The live screen: thumbnails pushed a few times a second while the page is visible;
 * the stream is switched off when the page is hidden or the watcher unmounts. The run
 * view's Stage watches and shows the frame (LiveFrame); LiveScreen is the same as a panel
 * of its own.
 */
export function useScreenWatch(): void {
  const client = useClient();
  const connected = useApp((s) => s.connected);
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
}

/** The newest frame, whole in view (its height capped to the window less the header and title). */
export function LiveFrame() {
  const frame = useApp((s) => s.frame);
  return (
    <>
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
    </>
  );
}

export function LiveScreen() {
  const frame = useApp((s) => s.frame);
  const held = useApp((s) => s.run?.held);
  useScreenWatch();
  return (
    <section className="panel live" aria-label="Live screen">
      <h2>
        Live screen {frame && <span className="muted live-dot" title={new Date(frame.at).toLocaleTimeString()}>●</span>}
        <HeldBadge held={held} />
      </h2>
      <LiveFrame />
    </section>
  );
}
