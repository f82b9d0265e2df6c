/**
 * Pasting text through the clipboard, with the user's clipboard restored afterwards.
 *
 * X11: the text is put in both CLIPBOARD and PRIMARY by an `xclip` we keep in the
 * foreground, then Shift+Insert is pressed — GTK/Qt/Chromium paste CLIPBOARD on it,
 * xterm pastes PRIMARY. We wait until the application has fetched the selection
 * (xclip reports each request it served) and the requests have stopped, then give
 * both selections back their previous text (or no owner, as before).
 * Only text is preserved; an image on the clipboard is not restored.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { sleep } from '../shared/abort.js';
import { runBytes, ToolMissingError } from './exec.js';

type Selection = 'clipboard' | 'primary';

async function readSelection(sel: Selection): Promise<Buffer | undefined> {
  try {
    const r = await runBytes('xclip', ['-o', '-selection', sel, '-t', 'UTF8_STRING'], 1_000);
    return r.code === 0 ? r.stdout : undefined;
  } catch (err) {
    if (err instanceof ToolMissingError) throw err;
    return undefined;
  }
}

interface Server {
  child: ChildProcess;
  owning: Promise<void>;
  served: () => number;
  lastServedAt: () => number;
}

/** Starts an xclip that owns `sel` with `data`, reporting each request it serves. */
function serve(sel: Selection, data: Buffer | string): Server {
  const child = spawn('xclip', ['-i', '-selection', sel, '-verbose'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let served = 0;
  let lastServedAt = 0;
  let out = '';
  let owned: () => void = () => {};
  let failed: (e: Error) => void = () => {};
  const owning = new Promise<void>((resolve, reject) => {
    owned = resolve;
    failed = reject;
  });
  const onData = (d: Buffer) => {
    out += d.toString();
    if (out.includes('Waiting for selection requests')) owned();
    const numbers = [...out.matchAll(/selection request number (\d+)/g)].map((m) => Number(m[1]));
    const n = numbers.length ? Math.max(...numbers) - 1 : 0;
    if (n > served) {
      served = n;
      lastServedAt = Date.now();
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  child.on('error', (err) => failed((err as NodeJS.ErrnoException).code === 'ENOENT' ? new ToolMissingError('xclip') : err));
  child.on('exit', (code) => failed(new Error(`xclip exited (${code}) before owning the ${sel} selection: ${out.trim()}`)));
  child.stdin.end(data);
  return { child, owning, served: () => served, lastServedAt: () => lastServedAt };
}

/**
 * Gives `sel` to a background xclip holding `data` (xclip forks and serves until
 * replaced), and waits until it answers, so the next reader sees `data`; false when no
 * read gave it back within 1 s.
 */
async function own(sel: Selection, data: Buffer): Promise<boolean> {
  const child = spawn('xclip', ['-i', '-selection', sel], { stdio: ['pipe', 'ignore', 'ignore'], detached: true });
  const started = new Promise<Error | undefined>((resolve) => {
    child.once('error', (err) => resolve((err as NodeJS.ErrnoException).code === 'ENOENT' ? new ToolMissingError('xclip') : err));
    child.once('exit', () => resolve(undefined));
  });
  child.stdin.end(data);
  child.unref();
  const failed = await started;
  if (failed) throw failed;
  const deadline = Date.now() + 1_000;
  while (Date.now() < deadline) {
    const now = await readSelection(sel);
    if (now && now.equals(data)) return true;
    await sleep(10);
  }
  return false;
}

/** Gives `sel` back its earlier text (the paste's clean-up): best effort — a missing xclip or a failed hand-back is not reported here (the paste itself already needed xclip). */
async function restore(sel: Selection, data: Buffer): Promise<void> {
  await own(sel, data).catch(() => false);
}

/**
 * The text on the clipboard (the CLIPBOARD selection, as UTF-8); '' when nothing owns it
 * or its owner offers no text (an image). xclip missing: ToolMissingError.
 */
export async function readClipboardText(): Promise<string> {
  return (await readSelection('clipboard'))?.toString('utf8') ?? '';
}

/**
 * Puts `text` on the clipboard (CLIPBOARD), held by a background xclip until another
 * owner takes it, as an app's Copy would; resolves once a read gives the text back.
 */
export async function writeClipboardText(text: string): Promise<void> {
  if (!(await own('clipboard', Buffer.from(text)))) throw new Error('the clipboard did not hold the text within 1 s of xclip taking it');
}

export interface PasteOptions {
  signal?: AbortSignal;
  /** Presses the paste shortcut (Shift+Insert on X11). */
  pressPaste: () => Promise<void>;
  /** Longest wait for the application to fetch the text. */
  timeoutMs?: number;
}

export async function pasteX11(text: string, options: PasteOptions): Promise<void> {
  const [oldClipboard, oldPrimary] = await Promise.all([readSelection('clipboard'), readSelection('primary')]);
  const servers = [serve('clipboard', text), serve('primary', text)];
  try {
    await Promise.race([
      Promise.all(servers.map((s) => s.owning)),
      sleep(3_000).then(() => {
        throw new Error('xclip did not take the selection within 3 s');
      }),
    ]);
    // xclip says it is waiting before its ownership has reached the server: read both
    // selections back until they hold our text, so the paste key cannot race ahead of it.
    const wanted = Buffer.from(text);
    await Promise.all(
      (['clipboard', 'primary'] as const).map(async (sel, i) => {
        const deadline = Date.now() + 3_000;
        for (;;) {
          const now = await readSelection(sel);
          if (now?.equals(wanted)) {
            // Our own read-back was one request served by our xclip: wait for its report,
            // so that it is never counted as the application's paste (issue 11: a late
            // report taken for the paste let the restore race the application).
            while (servers[i]!.served() < 1) {
              if (Date.now() > deadline) throw new Error(`xclip did not report serving the ${sel} read-back within 3 s`);
              await sleep(5, options.signal);
            }
            return;
          }
          if (Date.now() > deadline) throw new Error(`the ${sel} selection did not take the text within 3 s`);
          await sleep(5, options.signal);
        }
      }),
    );
    const servedBefore = servers.reduce((n, s) => n + s.served(), 0);
    await options.pressPaste();
    // Wait for the first request, then until requests have paused (TARGETS, then the text).
    const deadline = Date.now() + (options.timeoutMs ?? 2_000);
    const total = () => servers.reduce((n, s) => n + s.served(), 0) - servedBefore;
    const pressedAt = Date.now();
    const last = () => Math.max(pressedAt, ...servers.map((s) => s.lastServedAt()));
    while (Date.now() < deadline) {
      if (total() > 0 && Date.now() - last() >= 60) break;
      await sleep(10, options.signal);
    }
    if (total() === 0) throw new Error('the application did not ask for the pasted text (is a text field focused?)');
  } finally {
    for (const s of servers) {
      s.child.removeAllListeners('exit');
      s.child.kill('SIGTERM');
    }
    await Promise.all([
      ...servers.map((s) => new Promise((resolve) => (s.child.exitCode !== null ? resolve(null) : s.child.once('exit', resolve)))),
    ]);
    await Promise.all([oldClipboard ? restore('clipboard', oldClipboard) : null, oldPrimary ? restore('primary', oldPrimary) : null]);
  }
}
