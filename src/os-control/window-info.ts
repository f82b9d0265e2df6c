/** The focused window as the OS names it (active-window.ts asks; x11/active-window.ts answers on X11). */
export interface ActiveWindow {
  title: string;
  /** X11: the WM_CLASS class ("XTerm"); macOS: the application name; Windows: the process name. */
  app: string;
  /** X11: the WM_CLASS instance ("xterm"), when different from `app`. */
  instance?: string;
  /** Platform window id (X11: decimal), when known. */
  windowId?: string;
  pid?: number;
}
