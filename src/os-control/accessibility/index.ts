/**
 * The accessibility tree of the desktop, behind one interface for every OS (README
 * here). Linux: AT-SPI over D-Bus (atspi/). Windows UI Automation (uia/) and macOS AX
 * (ax/): written and unit-tested with sample dumps, NOT YET RUN on those systems; their
 * element actions other than click answer "unsupported".
 */
import { ElementTreeOptionsSchema, type ElementLookup, type ElementTreeOptions, type ElementTreeRequest, type ElementTreeResult } from '../../shared/elements.js';
import { readAxTree } from './ax/read.js';
import { parsePath } from './path.js';
import { elementAtPath } from './platform-tree.js';
import { readUiaTree } from './uia/read.js';
import { AtspiBusUnavailable, dropSharedBus, sharedAccessibilityBus, type AtspiBus } from './atspi/bus.js';
import { locatePath, readTree, resolvePath, type FocusHint } from './atspi/reader.js';
import { actOnElement, type ElementCallOp } from './atspi/act.js';
import { x11WindowOrigin } from './x11-origin.js';

export type { FocusHint } from './atspi/reader.js';
export type { ElementCallOp } from './atspi/act.js';
export { ElementPathError, formatPath, parsePath, siblingSteps, type PathStep } from './path.js';
export { ACCESSIBILITY_LIMITS } from './limits.js';

export interface AccessibilityOptions {
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
}

function unsupported(platform: NodeJS.Platform): ElementTreeResult {
  const source = platform === 'win32' ? 'uia' : platform === 'darwin' ? 'ax' : 'atspi';
  const what = platform === 'win32' || platform === 'darwin' ? 'acting on an element without the pointer (focus, set_value, invoke)' : 'reading the accessibility tree';
  return { kind: 'none', source, reason: 'unsupported', detail: `${what} is not available on ${platform} yet` };
}

/**
 * Windows and macOS: one dump process per read (uia/read.ts, ax/read.ts). A dump that
 * fails (PowerShell blocked, the Accessibility permission missing on macOS) is the OS's
 * accessibility service being out of reach: `no-bus`, with what the process said.
 */
async function readPlatformTree(platform: 'win32' | 'darwin', request: ElementTreeRequest): Promise<ElementTreeResult> {
  const source = platform === 'win32' ? 'uia' : 'ax';
  try {
    return platform === 'win32' ? await readUiaTree(request, 1) : await readAxTree(request);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { kind: 'none', source, reason: 'no-bus', detail: `the ${platform === 'win32' ? 'UI Automation dump (PowerShell)' : 'AX dump (osascript; needs the Accessibility permission)'} failed: ${detail.slice(0, 400)}` };
  }
}

/** A path's element on Windows/macOS: its window read whole (hidden parts too), then the path looked up. */
async function findPlatformElement(platform: 'win32' | 'darwin', path: string): Promise<ElementLookup> {
  const steps = parsePath(path);
  const title = steps[1]?.name;
  const request = ElementTreeOptionsSchema.parse({ scope: 'all', includeHidden: true, ...(title !== undefined ? { windowPattern: `^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$` } : {}) });
  const tree = await readPlatformTree(platform, request);
  if (tree.kind === 'none') return { kind: 'none', reason: tree.reason, detail: tree.detail };
  const element = elementAtPath(tree, path);
  return element ? { kind: 'found', element } : { kind: 'missing', matched: '', detail: `no element at ${path}` };
}

function unsupportedLookup(platform: NodeJS.Platform): ElementLookup {
  const none = unsupported(platform);
  return { kind: 'none', reason: 'unsupported', detail: none.kind === 'none' ? none.detail : '' };
}

async function withBus<T>(env: NodeJS.ProcessEnv, use: (bus: AtspiBus) => Promise<T>, noBus: (detail: string) => T): Promise<T> {
  let bus: AtspiBus;
  try {
    bus = await sharedAccessibilityBus(env);
  } catch (err) {
    if (err instanceof AtspiBusUnavailable) return noBus(err.message);
    throw err;
  }
  try {
    return await use(bus);
  } catch (err) {
    // The bus went away mid-walk (session ended): the same answer as no bus at all, and
    // the next call connects afresh.
    if (err instanceof AtspiBusUnavailable) {
      dropSharedBus(bus);
      return noBus(err.message);
    }
    throw err;
  }
}

/**
 * The element tree the options ask for. `focus` says which window the window system
 * considers focused (its pid picks the application); without it the AT-SPI ACTIVE
 * state decides. Never throws for a missing bus or an app that exposes nothing: those
 * are `{ kind: 'none' }` with the reason. Throws for invalid options.
 */
export async function readElementTree(options: ElementTreeOptions, focus: FocusHint | undefined, o: AccessibilityOptions = {}): Promise<ElementTreeResult> {
  const request = ElementTreeOptionsSchema.parse(options);
  const platform = o.platform ?? process.platform;
  if (platform === 'win32' || platform === 'darwin') return readPlatformTree(platform, request);
  if (platform !== 'linux') return unsupported(platform);
  return withBus(
    o.env ?? process.env,
    (bus) => readTree(bus, request, focus, (app, title, frame) => x11WindowOrigin(app, title, frame, o.env ?? process.env)),
    (detail) => ({ kind: 'none', source: 'atspi', reason: 'no-bus', detail }),
  );
}

/** Finds the element a stable path names, now. Throws ElementPathError for a malformed path. */
export async function findElementByPath(path: string, o: AccessibilityOptions = {}): Promise<ElementLookup> {
  const platform = o.platform ?? process.platform;
  if (platform === 'win32' || platform === 'darwin') return findPlatformElement(platform, path);
  if (platform !== 'linux') return unsupportedLookup(platform);
  return withBus(
    o.env ?? process.env,
    (bus) => resolvePath(bus, path, (app, title, frame) => x11WindowOrigin(app, title, frame, o.env ?? process.env)),
    (detail) => ({ kind: 'none', reason: 'no-bus', detail }),
  );
}

/**
 * Finds the element a path names now and acts on it without the pointer (focus,
 * set_value, invoke: atspi/act.ts). `found` means it was found and the application did
 * it; `missing` and `none` mean nothing was done. Throws when the application refused.
 */
export async function actOnElementByPath(path: string, op: ElementCallOp, value: string | undefined, o: AccessibilityOptions = {}): Promise<ElementLookup> {
  const platform = o.platform ?? process.platform;
  if (platform !== 'linux') return unsupportedLookup(platform);
  const env = o.env ?? process.env;
  return withBus(
    env,
    async (bus): Promise<ElementLookup> => {
      const located = await locatePath(bus, path, (app, title, frame) => x11WindowOrigin(app, title, frame, env));
      if (located.kind !== 'found') return located;
      await actOnElement(bus, located.ref, located.element, op, value);
      return { kind: 'found', element: located.element };
    },
    (detail) => ({ kind: 'none', reason: 'no-bus', detail }),
  );
}
