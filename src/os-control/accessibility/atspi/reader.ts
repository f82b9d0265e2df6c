/**
 * Reads element trees from the AT-SPI bus.
 *
 * Speed: GTK 3's bridge has no bulk interface (no Cache.GetItems; its Collection only
 * returns references), and GTK 4's Cache holds only the objects already asked for. So
 * the tree is read with per-element calls, but never one at a time: every element's
 * calls go out together, and all siblings' together, on one connection (D-Bus keeps
 * them in order; the app answers as fast as its main loop runs). The baseline in
 * bench/accessibility.bench.ts walks the same tree one call at a time.
 *
 * Calls per element: 4 always (Accessible properties, role, states, interfaces), the
 * children when above the depth limit, then extents (Component), the value (Value), the
 * text (text roles and editable elements, never a password field) and the actions (only
 * for interactive roles and focusable elements).
 */
import { MAX_ELEMENT_TEXT, type ElementNode, type ElementState, type ElementTreeRequest, type ElementTreeResult, type ElementWindow, INTERACTIVE_ROLES } from '../../../shared/elements.js';
import type { Rect } from '../../../shared/actions.js';
import { ACCESSIBILITY_LIMITS } from '../limits.js';
import { childPath, formatPath, formatStep, parsePath, siblingSteps, type PathStep } from '../path.js';
import type { AtspiBus } from './bus.js';
import { elementStates, hasState, roleName } from './constants.js';
import {
  ActionsReply,
  CacheItemsReply,
  ExtentsReply,
  IFACE,
  IntReply,
  NULL_PATH,
  PropertiesReply,
  REGISTRY,
  RefsReply,
  StatesReply,
  StringReply,
  StringsReply,
  VariantReply,
  prop,
  type ObjectRef,
} from './wire.js';
import { z } from 'zod';
import type { ElementLookup } from '../../../shared/elements.js';

/** Roles whose text is their value (a label's text is already its name). */
const TEXT_ROLES: ReadonlySet<string> = new Set(['text', 'entry', 'terminal', 'paragraph', 'document text', 'spin button', 'combo box', 'static']);

/**
 * How many children an element has that must not be listed (0: list them). An element that
 * manages its descendants makes them on demand (AT-SPI's MANAGES_DESCENDANTS): LibreOffice
 * Calc's sheet has 1,048,576 × 16,384 cells, and a GetChildren on it froze Calc for good.
 * One with no more children than a tree holds (a GTK 3 tree view's rows) is still listed.
 */
export function countlessChildren(all: Record<string, { value: unknown }>, stateWords: readonly number[]): number {
  if (!hasState(stateWords, 'managesDescendants')) return 0;
  const count = prop(all, 'ChildCount', z.number().int()) ?? 0;
  return count > ACCESSIBILITY_LIMITS.maxNodes ? count : 0;
}

/** The focused window as the window system tells it (X11: _NET_ACTIVE_WINDOW), to pick its application. */
export interface FocusHint {
  pid?: number;
  title?: string;
  app?: string;
}

interface RawElement {
  ref: ObjectRef;
  role: string;
  name: string;
  description: string;
  stateWords: number[];
  interfaces: string[];
  childRefs: ObjectRef[];
  /** Children not listed because the element manages its descendants (its ChildCount), counted as not read. */
  unlisted?: number;
}

interface AppInfo {
  ref: ObjectRef;
  name: string;
  pid?: number;
  /** GTK 4.8 never sets SHOWING below its windows (constants.ts). */
  showingReliable: boolean;
  /** GTK 4 answers GetExtents(screen) relative to its window (it does not know where the window is). */
  relativeExtents: boolean;
  windows: RawElement[];
  /** Top-level windows that did not answer (a per-call limit ran out): left out of `windows`. */
  silentWindows: number;
}

function clip(text: string): string {
  return text.length > MAX_ELEMENT_TEXT ? `${text.slice(0, MAX_ELEMENT_TEXT)}…` : text;
}

/** AT-SPI's "no extents" values: -2^31 positions, empty sizes. */
function toBounds(x: number, y: number, width: number, height: number): Rect | undefined {
  if (width <= 0 || height <= 0 || x <= -1_000_000 || y <= -1_000_000) return undefined;
  return { x, y, width, height };
}

const refKey = ([dest, path]: ObjectRef) => `${dest}\u0000${path}`;

/**
 * What an application's Cache.GetItems said: every element it had created, with what
 * `raw()` would otherwise ask in four or five calls. GTK 4 creates an element the first
 * time anyone asks for it, so the cache of a window nobody has read yet is partial: an
 * element is taken from it only when all its children are in it too.
 */
class ElementCache {
  private readonly items = new Map<string, Omit<RawElement, 'childRefs'> & { childCount: number }>();
  private readonly children = new Map<string, Array<{ index: number; ref: ObjectRef }>>();

  add(reply: z.infer<typeof CacheItemsReply>[0]): void {
    for (const [ref, , parent, index, childCount, interfaces, name, role, description, stateWords] of reply) {
      this.items.set(refKey(ref), { ref, role: roleName(role), name: clip(name), description: clip(description), stateWords, interfaces, childCount });
      const siblings = this.children.get(refKey(parent)) ?? [];
      siblings.push({ index, ref });
      this.children.set(refKey(parent), siblings);
    }
  }

  get(ref: ObjectRef): RawElement | undefined {
    const item = this.items.get(refKey(ref));
    if (!item) return undefined;
    const kids = this.children.get(refKey(ref)) ?? [];
    if (kids.length !== item.childCount) return undefined;
    const { childCount: _count, ...rest } = item;
    return { ...rest, childRefs: [...kids].sort((a, b) => a.index - b.index).map((k) => k.ref) };
  }
}

/** Where a window's content starts on the screen, for toolkits whose extents are window-relative (GTK 4). */
export type WindowOrigin = (app: string, title: string, frame: { width: number; height: number } | undefined) => Promise<{ x: number; y: number } | undefined>;

class Walk {
  nodes = 0;
  truncated = false;
  readonly cache = new ElementCache();

  constructor(
    private readonly bus: AtspiBus,
    private readonly request: Pick<ElementTreeRequest, 'maxDepth' | 'includeHidden'>,
  ) {}

  /** The four calls every element needs, plus its children when they will be read. */
  async raw(ref: ObjectRef, withChildren: boolean): Promise<RawElement> {
    const cached = this.cache.get(ref);
    if (cached) return withChildren ? cached : { ...cached, childRefs: [] };
    const [dest, path] = ref;
    const on = (iface: string, member: string, signature = '', body: unknown[] = []) => ({ destination: dest, path, iface, member, signature, body });
    const propsCall = this.bus.call(on(IFACE.properties, 'GetAll', 's', [IFACE.accessible]), PropertiesReply);
    const stateCall = this.bus.call(on(IFACE.accessible, 'GetState'), StatesReply);
    // Children are listed only once the element's state and count say they may be: listing a
    // sheet's cells froze LibreOffice Calc, which then took no click or key at all.
    const unlistedCall = Promise.all([propsCall, stateCall]).then(([[all], [words]]) => countlessChildren(all, words));
    const [props, [role], [stateWords], [interfaces], children, unlisted] = await Promise.all([
      propsCall,
      this.bus.call(on(IFACE.accessible, 'GetRole'), IntReply),
      stateCall,
      this.bus.call(on(IFACE.accessible, 'GetInterfaces'), StringsReply),
      withChildren ? unlistedCall.then((n) => (n > 0 ? ([[]] as [ObjectRef[]]) : this.bus.call(on(IFACE.accessible, 'GetChildren'), RefsReply))) : Promise.resolve([[]] as [ObjectRef[]]),
      unlistedCall,
    ]);
    const all = props[0];
    return {
      ref,
      role: roleName(role),
      name: clip(prop(all, 'Name', z.string()) ?? ''),
      description: clip(prop(all, 'Description', z.string()) ?? ''),
      stateWords,
      interfaces,
      childRefs: children[0].filter(([, p]) => p !== NULL_PATH),
      ...(unlisted > 0 ? { unlisted } : {}),
    };
  }

  /** Extents, value, text and actions: what depends on the element's interfaces and role. */
  async details(raw: RawElement, states: ElementState[]): Promise<Pick<ElementNode, 'bounds' | 'value' | 'actions'>> {
    const [dest, path] = raw.ref;
    const on = (iface: string, member: string, signature = '', body: unknown[] = []) => ({ destination: dest, path, iface, member, signature, body });
    const has = (iface: string) => raw.interfaces.includes(iface);
    const password = states.includes('password');
    const wantsText = !password && has(IFACE.text) && (TEXT_ROLES.has(raw.role) || states.includes('editable'));
    const wantsActions = has(IFACE.action) && (INTERACTIVE_ROLES.has(raw.role) || states.includes('focusable'));
    const [extents, value, text, actions] = await Promise.all([
      has(IFACE.component) ? this.bus.call(on(IFACE.component, 'GetExtents', 'u', [0]), ExtentsReply).catch(() => undefined) : undefined,
      !password && has(IFACE.value) ? this.bus.call(on(IFACE.properties, 'Get', 'ss', [IFACE.value, 'CurrentValue']), VariantReply).catch(() => undefined) : undefined,
      wantsText ? this.bus.call(on(IFACE.text, 'GetText', 'ii', [0, ACCESSIBILITY_LIMITS.maxTextChars]), StringReply).catch(() => undefined) : undefined,
      wantsActions ? this.bus.call(on(IFACE.action, 'GetActions'), ActionsReply).catch(() => undefined) : undefined,
    ]);
    const out: Pick<ElementNode, 'bounds' | 'value' | 'actions'> = { actions: actions ? actions[0].map(([name]) => name).filter((n) => n.length > 0 && n.length <= 64).slice(0, 32) : [] };
    const bounds = extents ? toBounds(...extents[0]) : undefined;
    if (bounds) out.bounds = bounds;
    const numeric = value ? z.number().finite().safeParse(value[0].value) : undefined;
    if (text) out.value = clip(text[0]);
    else if (numeric?.success) out.value = String(Math.round(numeric.data * 1e6) / 1e6);
    return out;
  }

  /** Turns a fetched element into a node, reading its subtree below it. */
  async expand(raw: RawElement, path: string, depth: number, ctx: WindowContext): Promise<ElementNode> {
    const { showingReliable } = ctx;
    const states = elementStates(raw.stateWords, raw.role, showingReliable);
    const password = states.includes('password');
    const detailsPromise = Promise.all([this.details(raw, states), ctx.offset]).then(([d, offset]) => placeBounds(d, ctx.relativeExtents, offset));
    const node: ElementNode = { path, role: raw.role, name: raw.name, states, actions: [], children: [] };
    if (raw.description) node.description = raw.description;
    // A password field's subtree is never read: some toolkits put the text in child elements.
    const descend = depth < this.request.maxDepth && !password && raw.childRefs.length > 0;
    let omitted = (descend ? 0 : raw.childRefs.length) + (raw.unlisted ?? 0);
    if (descend) {
      const room = Math.max(0, ACCESSIBILITY_LIMITS.maxNodes - this.nodes);
      const refs = raw.childRefs.slice(0, room);
      if (refs.length < raw.childRefs.length) this.truncated = true;
      omitted += raw.childRefs.length - refs.length;
      this.nodes += refs.length;
      const settled = await Promise.allSettled(refs.map((r) => this.raw(r, depth + 1 < this.request.maxDepth)));
      // A child that vanished or failed between GetChildren and its own calls is left out and counted.
      const children = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
      omitted += settled.length - children.length;
      const steps = siblingSteps(children);
      const kept = children.flatMap((c, i) => {
        if (!this.request.includeHidden && !elementStates(c.stateWords, c.role, showingReliable).includes('visible')) return [];
        return [{ raw: c, step: steps[i]! }];
      });
      omitted += children.length - kept.length;
      node.children = await Promise.all(kept.map(({ raw: c, step }) => this.expand(c, childPath(path, step), depth + 1, ctx)));
    }
    Object.assign(node, await detailsPromise);
    // Key order fixed for stable JSON: path, role, name, description, value, states, actions, bounds, children.
    return orderNode(node, omitted);
  }
}

/**
 * How one window's elements are read: whether SHOWING can be trusted, and where its
 * extents start when the toolkit gives them relative to the window.
 * `offset` undefined with relative extents: the window was not found on screen, so
 * bounds are left out rather than given wrong.
 */
interface WindowContext {
  showingReliable: boolean;
  relativeExtents: boolean;
  /** Found while the tree is read (it needs an X round trip of its own). */
  offset: Promise<{ x: number; y: number } | undefined>;
}

function placeBounds<T extends { bounds?: Rect }>(d: T, relativeExtents: boolean, offset: { x: number; y: number } | undefined): T {
  if (!relativeExtents || !d.bounds) return d;
  const { bounds, ...rest } = d;
  return offset ? ({ ...rest, bounds: { ...bounds, x: bounds.x + offset.x, y: bounds.y + offset.y } } as T) : (rest as T);
}

function windowContext(bus: AtspiBus, app: AppInfo, window: RawElement | undefined, origin: WindowOrigin | undefined): WindowContext {
  const offset = (async () => {
    if (!app.relativeExtents || !origin || !window) return undefined;
    // The frame's own (window-relative) size tells the origin finder how big the content is.
    const extents = await bus
      .call({ destination: window.ref[0], path: window.ref[1], iface: IFACE.component, member: 'GetExtents', signature: 'u', body: [0] }, ExtentsReply)
      .catch(() => undefined);
    const frame = extents ? { width: extents[0][2], height: extents[0][3] } : undefined;
    return origin(app.name, window.name, frame).catch(() => undefined);
  })();
  return { showingReliable: app.showingReliable, relativeExtents: app.relativeExtents, offset };
}

/** Fills the walk's cache from the application's Cache.GetItems, where it has one (GTK 4, Qt); GTK 3 has none. */
async function loadCache(bus: AtspiBus, walk: Walk, app: AppInfo): Promise<void> {
  const reply = await bus
    .call({ destination: app.ref[0], path: '/org/a11y/atspi/cache', iface: 'org.a11y.atspi.Cache', member: 'GetItems' }, CacheItemsReply)
    .catch(() => undefined);
  if (reply) walk.cache.add(reply[0]);
}

function orderNode(node: ElementNode, omitted: number): ElementNode {
  return {
    path: node.path,
    role: node.role,
    name: node.name,
    ...(node.description !== undefined ? { description: node.description } : {}),
    ...(node.value !== undefined ? { value: node.value } : {}),
    states: node.states,
    actions: node.actions,
    ...(node.bounds ? { bounds: node.bounds } : {}),
    children: node.children,
    ...(omitted > 0 ? { omittedChildren: omitted } : {}),
  };
}

async function appInfo(bus: AtspiBus, walk: Walk, ref: ObjectRef): Promise<AppInfo> {
  const [dest, path] = ref;
  const [self, pid, toolkit, version] = await Promise.all([
    walk.raw(ref, true),
    connectionPid(bus, dest),
    bus.call({ destination: dest, path, iface: IFACE.properties, member: 'Get', signature: 'ss', body: [IFACE.application, 'ToolkitName'] }, VariantReply).catch(() => undefined),
    bus.call({ destination: dest, path, iface: IFACE.properties, member: 'Get', signature: 'ss', body: [IFACE.application, 'Version'] }, VariantReply).catch(() => undefined),
  ]);
  const toolkitName = String(toolkit?.[0].value ?? '');
  const toolkitVersion = String(version?.[0].value ?? '');
  const read = await Promise.allSettled(self.childRefs.map((r) => walk.raw(r, true)));
  const windows = read.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  return {
    ref,
    name: self.name,
    ...(pid !== undefined && pid > 0 ? { pid } : {}),
    showingReliable: !(toolkitName === 'GTK' && toolkitVersion.startsWith('4.')),
    relativeExtents: toolkitName === 'GTK' && toolkitVersion.startsWith('4.'),
    windows,
    silentWindows: read.length - windows.length,
  };
}

/** An application registered on the bus whose connection lives (the bus daemon knows its pid) but which did not answer. */
interface SilentApp {
  bus: string;
  pid: number;
}

/**
 * Every application on the bus, with its top-level windows, and the ones that did not
 * answer (a per-call limit ran out: busy, hung). A registration whose connection is gone
 * (the daemon knows no pid for it) is a closed app, not a silent one, and is left out.
 */
async function listApps(bus: AtspiBus, walk: Walk): Promise<{ apps: AppInfo[]; silent: SilentApp[] }> {
  const [refs] = await bus.call({ destination: REGISTRY[0], path: REGISTRY[1], iface: IFACE.accessible, member: 'GetChildren' }, RefsReply);
  const listed = refs.slice(0, ACCESSIBILITY_LIMITS.maxApps);
  const settled = await Promise.allSettled(listed.map((r) => appInfo(bus, walk, r)));
  const failed = listed.filter((_, i) => settled[i]!.status === 'rejected');
  const silent = await Promise.all(failed.map(([dest]) => connectionPid(bus, dest).then((pid) => (pid === undefined ? [] : [{ bus: dest, pid }]))));
  const apps = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  // An app that answered but not for some of its windows is silent about those.
  const partly = apps.flatMap((a) => (a.silentWindows > 0 && a.pid !== undefined ? [{ bus: a.ref[0], pid: a.pid }] : []));
  return { apps, silent: [...silent.flat(), ...partly] };
}

/** The pid of a bus connection, from the bus daemon (which answers for a busy app); undefined once the connection is gone. */
function connectionPid(bus: AtspiBus, dest: string): Promise<number | undefined> {
  return bus
    .call({ destination: 'org.freedesktop.DBus', path: '/org/freedesktop/DBus', iface: 'org.freedesktop.DBus', member: 'GetConnectionUnixProcessID', signature: 's', body: [dest] }, IntReply)
    .then(([p]) => (p > 0 ? p : undefined))
    .catch(() => undefined);
}

/** Said when a silent app may own the window asked for: what it shows is not known, which is not "no tree". */
function noAnswer(silent: SilentApp[], what: string): { reason: 'no-answer'; detail: string } {
  const apps = silent.map((a) => `${a.bus} (pid ${a.pid})`).join(', ');
  return { reason: 'no-answer', detail: `${what}: ${silent.length === 1 ? 'an application' : `${silent.length} applications`} on the accessibility bus did not answer in time (${apps}) — busy or hung; its tree is not known` };
}

function windowPatternRegex(pattern: string | undefined): RegExp | undefined {
  if (pattern === undefined) return undefined;
  try {
    return new RegExp(pattern, 'i');
  } catch (err) {
    throw new Error(`invalid window pattern ${JSON.stringify(pattern)}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}

interface Chosen {
  app: AppInfo;
  appStep: PathStep;
  window: RawElement;
  windowStep: PathStep;
}

/**
 * Which windows a request means. Numbered rules, first match wins:
 * 1. a window pattern: every window whose title (or app name) matches it;
 * 2. scope "all": every window on screen;
 * 3. focus known with a pid: the ACTIVE window of the app with that pid, else its window
 *    titled like the focused one; an app with that pid that has no such window, or no
 *    app with that pid → not exposed;
 * 4. focus known without a pid: the ACTIVE window of that title or application, else
 *    the window of that title on screen, else not exposed;
 * 5. focus unknown: the windows in the ACTIVE state.
 */
function chooseWindows(apps: AppInfo[], silent: SilentApp[], request: ElementTreeRequest, focus: FocusHint | undefined): Chosen[] | { reason: 'no-window' | 'not-exposed' | 'no-answer'; detail: string } {
  const appSteps = siblingSteps(apps.map((a) => ({ role: 'application', name: a.name })));
  const all: Chosen[] = apps.flatMap((app, i) => {
    const steps = siblingSteps(app.windows);
    return app.windows.map((w, j) => ({ app, appStep: appSteps[i]!, window: w, windowStep: steps[j]! }));
  });
  const onScreen = (c: Chosen) => request.includeHidden || elementStates(c.window.stateWords, c.window.role, true).includes('visible');
  const active = (c: Chosen) => elementStates(c.window.stateWords, c.window.role, true).includes('active');
  const pattern = windowPatternRegex(request.windowPattern);
  if (pattern) {
    const hits = all.filter((c) => pattern.test(c.window.name) || pattern.test(c.app.name));
    if (!hits.length && silent.length) return noAnswer(silent, `no window that answered matches /${request.windowPattern}/i`);
    return hits.length ? hits : { reason: 'no-window', detail: `no window exposing a tree matches /${request.windowPattern}/i (windows: ${all.map((c) => JSON.stringify(c.window.name)).join(', ') || 'none'})` };
  }
  if (request.scope === 'all') {
    const shown = all.filter(onScreen);
    if (!shown.length && silent.length) return noAnswer(silent, 'no application that answered has a window on screen');
    return shown.length ? shown : { reason: 'no-window', detail: 'no application on the accessibility bus has a window on screen' };
  }
  if (focus?.pid !== undefined) {
    const mine = all.filter((c) => c.app.pid === focus.pid);
    const busy = silent.filter((a) => a.pid === focus.pid);
    const what = `the focused window${focus.title ? ` ${JSON.stringify(focus.title)}` : ''}${focus.app ? ` (${focus.app}, pid ${focus.pid})` : ` (pid ${focus.pid})`}`;
    if (!mine.length) {
      if (busy.length) return noAnswer(busy, what);
      return { reason: 'not-exposed', detail: `${what} exposes no accessibility tree: its application is not on the accessibility bus (Xaw/Motif/Tk apps never are; GTK/Qt/Chromium apps are when started with the bus running)` };
    }
    const pick = mine.find(active) ?? (focus.title !== undefined ? mine.find((c) => c.window.name === focus.title) : undefined) ?? mine.find(onScreen);
    if (!pick && busy.length) return noAnswer(busy, what);
    return pick ? [pick] : { reason: 'not-exposed', detail: `${what}: its application is on the bus but shows none of its windows there` };
  }
  if (focus) {
    // The window system names a focused window but not its process (Xaw apps such as
    // xcalc set no _NET_WM_PID): only a window of the same title or application counts.
    const sameApp = (c: Chosen) => focus.app !== undefined && c.app.name.toLowerCase() === focus.app.toLowerCase();
    const pick = all.find((c) => active(c) && (c.window.name === focus.title || sameApp(c))) ?? all.find((c) => c.window.name === focus.title && onScreen(c));
    if (!pick && silent.length) return noAnswer(silent, `the focused window ${JSON.stringify(focus.title ?? '')}`);
    return pick
      ? [pick]
      : { reason: 'not-exposed', detail: `the focused window ${JSON.stringify(focus.title ?? '')}${focus.app ? ` (${focus.app})` : ''} exposes no accessibility tree: no application on the accessibility bus has it (Xaw/Motif/Tk apps never do; GTK/Qt/Chromium apps do when started with the bus running)` };
  }
  const activeWindows = all.filter(active);
  if (!activeWindows.length && silent.length) return noAnswer(silent, 'no window that answered is active (focused)');
  return activeWindows.length ? activeWindows : { reason: 'no-window', detail: 'no window on the accessibility bus is active (focused)' };
}

export async function readTree(bus: AtspiBus, request: ElementTreeRequest, focus: FocusHint | undefined, origin?: WindowOrigin): Promise<ElementTreeResult> {
  const walk = new Walk(bus, request);
  const { apps, silent } = await listApps(bus, walk);
  if (apps.length === 0 && !focus) {
    if (silent.length) return { kind: 'none', source: 'atspi', ...noAnswer(silent, 'no application answered') };
    return { kind: 'none', source: 'atspi', reason: 'no-window', detail: 'the accessibility bus runs, but no application is registered on it (start the apps after the bus, without NO_AT_BRIDGE=1 / GTK_A11Y=none)' };
  }
  const chosen = chooseWindows(apps, silent, request, focus);
  if (!Array.isArray(chosen)) return { kind: 'none', source: 'atspi', ...chosen };
  walk.nodes = chosen.length;
  await Promise.all([...new Set(chosen.map((c) => c.app))].map((app) => loadCache(bus, walk, app)));
  const windows: ElementWindow[] = await Promise.all(
    chosen.map(async (c) => {
      const path = formatPath([c.appStep, c.windowStep]);
      const root = await walk.expand(c.window, path, 0, windowContext(bus, c.app, c.window, origin));
      return { app: c.app.name, ...(c.app.pid !== undefined ? { pid: c.app.pid } : {}), root };
    }),
  );
  let nodeCount = 0;
  const count = (n: ElementNode): void => {
    nodeCount++;
    n.children.forEach(count);
  };
  windows.forEach((w) => count(w.root));
  return { kind: 'tree', source: 'atspi', scope: request.scope, windows, nodeCount, truncated: walk.truncated };
}

/**
 * Finds the element a path names, now. Walks the path step by step (each level: the
 * children's role and name only), then reads that one element in full.
 */
export async function resolvePath(bus: AtspiBus, pathText: string, origin?: WindowOrigin): Promise<ElementLookup> {
  const located = await locatePath(bus, pathText, origin);
  return located.kind === 'found' ? { kind: 'found', element: located.element } : located;
}

/** resolvePath, with the element's bus reference (to act on it: atspi/act.ts). */
export type Located = { kind: 'found'; element: ElementNode; ref: ObjectRef } | Extract<ElementLookup, { kind: 'missing' }>;

export async function locatePath(bus: AtspiBus, pathText: string, origin?: WindowOrigin): Promise<Located> {
  const steps = parsePath(pathText);
  const walk = new Walk(bus, { maxDepth: 0, includeHidden: true });
  const [appRefs] = await bus.call({ destination: REGISTRY[0], path: REGISTRY[1], iface: IFACE.accessible, member: 'GetChildren' }, RefsReply);
  let level: ObjectRef[] = appRefs;
  let matched: PathStep[] = [];
  let app: AppInfo | undefined;
  let ctx: WindowContext = { showingReliable: true, relativeExtents: false, offset: Promise.resolve(undefined) };
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]!;
    const raws = (await Promise.allSettled(level.map((r) => walk.raw(r, true)))).flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const rawSteps = siblingSteps(i === 0 ? raws.map((r) => ({ role: 'application', name: r.name })) : raws);
    const at = rawSteps.findIndex((s) => s.role === step.role && s.name === step.name && s.index === step.index);
    if (at < 0) {
      const near = rawSteps.slice(0, 12).map(formatStep).join(', ');
      return {
        kind: 'missing',
        matched: formatPath(matched),
        detail: `no ${formatStep(step)} ${matched.length ? `under ${formatPath(matched)}` : 'among the applications'}${near ? ` (there: ${near}${rawSteps.length > 12 ? ', …' : ''})` : ''}`,
      };
    }
    const raw = raws[at]!;
    if (i === 0) {
      app = await appInfo(bus, walk, raw.ref).catch(() => undefined);
      if (app) ctx = windowContext(bus, app, undefined, undefined);
    }
    if (i === 1 && app) ctx = windowContext(bus, app, raw, origin);
    matched = [...matched, step];
    if (i === steps.length - 1) {
      const element = await walk.expand(i === 0 ? { ...raw, role: 'application' } : raw, formatPath(matched), 0, ctx);
      return { kind: 'found', element, ref: raw.ref };
    }
    level = raw.childRefs;
  }
  return { kind: 'missing', matched: formatPath(matched), detail: 'empty path' };
}
