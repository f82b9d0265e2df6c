// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Providers } from '../../src/renderer/bridge/context.js';
import { LiveScreen } from '../../src/renderer/components/LiveScreen.js';
import { createAppStore } from '../../src/renderer/store/app-store.js';
import { TestClient } from './fixtures.js';

afterEach(cleanup);

function setVisibility(state: 'visible' | 'hidden') {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  act(() => void document.dispatchEvent(new Event('visibilitychange')));
}

describe('live screen', () => {
  it('watches while visible, stops when hidden or unmounted, shows only the newest frame', () => {
    setVisibility('visible');
    const client = new TestClient();
    const store = createAppStore(client);
    const view = render(
      <Providers client={client} store={store}>
        <LiveScreen />
      </Providers>,
    );
    expect(client.callsOf('screen.watch')).toEqual([{ on: true }]);
    act(() => store.getState().handlePush({ kind: 'frame', at: 1, width: 320, height: 200, jpegBase64: 'AAAA' }));
    act(() => store.getState().handlePush({ kind: 'frame', at: 2, width: 320, height: 200, jpegBase64: 'BBBB' }));
    expect(screen.getAllByTestId('live-frame')).toHaveLength(1);
    expect(screen.getByTestId('live-frame').getAttribute('src')).toBe('data:image/jpeg;base64,BBBB');
    setVisibility('hidden');
    expect(client.callsOf('screen.watch')).toEqual([{ on: true }, { on: false }]);
    setVisibility('visible');
    expect(client.callsOf('screen.watch')).toEqual([{ on: true }, { on: false }, { on: true }]);
    view.unmount();
    expect(client.callsOf('screen.watch')).toEqual([{ on: true }, { on: false }, { on: true }, { on: false }]);
  });

  it("names the desktop the frames show when it is not the person's screen (serve --virtual-display), and only then", () => {
    setVisibility('visible');
    const client = new TestClient();
    const store = createAppStore(client);
    render(
      <Providers client={client} store={store}>
        <LiveScreen />
      </Providers>,
    );
    act(() => store.getState().handlePush({ kind: 'frame', at: 1, width: 320, height: 200, jpegBase64: 'AAAA' }));
    expect(screen.queryByTestId('live-desktop')).toBeNull();
    expect(screen.getByTestId('live-frame').getAttribute('alt')).toBe('Live view of the screen the agent controls');
    act(() => store.getState().handlePush({ kind: 'frame', at: 2, width: 320, height: 200, jpegBase64: 'BBBB', desktop: 'virtual desktop Xvfb :7 1280x800' }));
    expect(screen.getByTestId('live-desktop').textContent).toBe('Runs act on a private virtual desktop Xvfb :7 1280x800, not on your screen.');
    expect(screen.getByTestId('live-frame').getAttribute('alt')).toBe('Live view of the virtual desktop Xvfb :7 1280x800 the agent controls');
  });
});
