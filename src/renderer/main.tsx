import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { BridgeClient } from '../shared/bridge.js';
import { Providers } from './bridge/context.js';
import { validatedClient, WsBridgeClient } from './bridge/ws-client.js';
import { App } from './components/App.js';
import { Hud } from './components/Hud.js';
import { createAppStore } from './store/app-store.js';
import './styles.css';

declare global {
  interface Window {
    /** Exposed by the Electron preload; absent in a browser. */
    deskpilot?: BridgeClient & { onConnection?: never };
  }
}

function makeClient(): { client: BridgeClient; onConnection: (fn: (c: boolean) => void) => void } {
  if (window.deskpilot) {
    return { client: validatedClient(window.deskpilot), onConnection: (fn) => fn(true) };
  }
  // Browser supervision: the server set an HttpOnly cookie from ?token=; drop the
  // token from the address bar so it is not bookmarked or shared by accident.
  const url = new URL(window.location.href);
  if (url.searchParams.has('token')) {
    url.searchParams.delete('token');
    window.history.replaceState(null, '', url.pathname + url.search + url.hash);
  }
  let notify: (c: boolean) => void = () => {};
  const proto = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  const client = new WsBridgeClient({ url: `${proto}//${window.location.host}/bridge`, onConnection: (c) => notify(c) });
  return { client, onConnection: (fn) => (notify = fn) };
}

const { client, onConnection } = makeClient();
const store = createAppStore(client, { canStoreKeys: !!window.deskpilot, surface: window.deskpilot ? 'desktop' : 'browser' });
onConnection((c) => store.getState().setConnected(c));

// The desktop app's HUD window loads the same page as index.html#hud.
const isHud = window.location.hash === '#hud';
if (isHud) client.subscribe((m) => store.getState().handlePush(m));

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Providers client={client} store={store}>
      {isHud ? <Hud /> : <App />}
    </Providers>
  </StrictMode>,
);
