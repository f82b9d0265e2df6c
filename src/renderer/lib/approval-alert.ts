import { useEffect, useRef } from 'react';

/**
 * Tells a person who looked away that an approval is waiting (issue 13 item 7): the
 * page title carries a badge — "(2) Approval waiting — DeskPilot" — in every browser
 * tab strip and task bar, and when the page is hidden and the person allowed desktop
 * notifications (`requestApprovalNotifications`), one notification per newly waiting
 * item. A notification never answers anything: clicking it only focuses the page.
 */
export const BASE_TITLE = 'DeskPilot';

/** The page title: a badge while approvals wait, else while the run is paused on a model error (issue 34 item 4). */
export function approvalTitle(waiting: number, pausedOnError = false): string {
  if (waiting > 0) return `(${waiting}) Approval waiting — ${BASE_TITLE}`;
  return pausedOnError ? `(!) Paused: model error — ${BASE_TITLE}` : BASE_TITLE;
}

export function notificationsSupported(): boolean {
  return typeof window !== 'undefined' && 'Notification' in window;
}

/** Asks the browser for permission (a person's click must call this). */
export async function requestApprovalNotifications(): Promise<NotificationPermission | 'unsupported'> {
  if (!notificationsSupported()) return 'unsupported';
  return Notification.requestPermission();
}

export function useApprovalAlert(waiting: number, pausedOnError = false): void {
  const previous = useRef(0);
  useEffect(() => {
    document.title = approvalTitle(waiting, pausedOnError);
    const grew = waiting > previous.current;
    previous.current = waiting;
    if (!grew || document.visibilityState === 'visible') return;
    if (notificationsSupported() && Notification.permission === 'granted') {
      const n = new Notification('DeskPilot: an action waits for your approval', { body: 'Open DeskPilot to approve or reject it.', tag: 'deskpilot-approval' });
      n.onclick = () => window.focus();
    }
  }, [waiting, pausedOnError]);
  useEffect(() => () => void (document.title = BASE_TITLE), []);
}
