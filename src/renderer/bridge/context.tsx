import { createContext, useContext, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { BridgeClient } from '../../shared/bridge.js';
import type { AppActions, AppState, AppStore } from '../store/app-store.js';

const ClientContext = createContext<BridgeClient | null>(null);
const StoreContext = createContext<AppStore | null>(null);

export function Providers({ client, store, children }: { client: BridgeClient; store: AppStore; children: ReactNode }) {
  return (
    <ClientContext.Provider value={client}>
      <StoreContext.Provider value={store}>{children}</StoreContext.Provider>
    </ClientContext.Provider>
  );
}

export function useClient(): BridgeClient {
  const c = useContext(ClientContext);
  if (!c) throw new Error('no bridge client');
  return c;
}

export function useApp<T>(selector: (s: AppState & AppActions) => T): T {
  const store = useContext(StoreContext);
  if (!store) throw new Error('no store');
  return useStore(store, selector);
}
