import { useState } from 'react';
import { useClient } from '../bridge/context.js';

export interface ConnectionCheck {
  busy: boolean;
  ok?: boolean;
  message?: string;
}

/**
 * The connection check (connection.test: one tiny request to the profile's own model
 * with its key), for every place that offers it — the composer and the first-run panel —
 * so both say the same thing the same way.
 */
export function useConnectionTest(profile: string): { check: ConnectionCheck; run: () => Promise<void> } {
  const client = useClient();
  const [check, setCheck] = useState<ConnectionCheck>({ busy: false });
  const run = async () => {
    setCheck({ busy: true });
    try {
      const r = await client.call('connection.test', profile ? { profile } : {});
      setCheck({ busy: false, ok: r.ok, message: r.message });
    } catch (err) {
      setCheck({ busy: false, ok: false, message: err instanceof Error ? err.message : String(err) });
    }
  };
  return { check, run };
}
