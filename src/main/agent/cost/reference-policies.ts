/**
 * The reference Anthropic computer-use demo's two context policies, replayed on the
 * trajectory of one of our runs: the baselines of issue 19. The facts of the demo
 * (anthropic-quickstarts computer-use-demo, loop.py and tools/computer.py) that matter:
 * - every computer action answers with a screenshot scaled to the standard size whose
 *   aspect ratio matches the screen (XGA 1024×768, WXGA 1280×800, FWXGA 1366×768), PNG;
 *   a GUI action's result carries no text (xdotool prints nothing);
 * - "keep 3": only the 3 newest screenshots stay (the figure removes one at a
 *   time; the demo's own chunking can only keep more);
 * - the Anthropic path keeps every screenshot and puts cache_control on the last block
 *   of the 3 newest user messages, plus the system prompt (4 breakpoints).
 * Tools and system are taken from our own request of the same step, so only the context
 * policy differs.
 */

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

export type ReferencePolicy = 'keep-3' | 'anthropic-path';

const STANDARD_SIZES = [
  { width: 1024, height: 768 },
  { width: 1280, height: 800 },
  { width: 1366, height: 768 },
] as const;

/** The demo's screenshot size for a screen: the standard size of the same aspect ratio (±0.02), else the screen's. */
export function referenceScreenshotSize(width: number, height: number): { width: number; height: number } {
  const ratio = width / height;
  for (const size of STANDARD_SIZES) {
    if (Math.abs(size.width / size.height - ratio) < 0.02 && size.width < width) return { ...size };
  }
  return { width, height };
}

const stripCache = (block: unknown): unknown => {
  if (!isObj(block)) return block;
  const { cache_control: _cc, ...rest } = block;
  return rest;
};

/** A screenshot the replay sends: its size stated, no bytes (the estimator reads width/height). */
const shot = (tag: string, size: { width: number; height: number }): Json => ({
  type: 'image',
  source: { type: 'base64', media_type: 'image/png', data: '', width: size.width, height: size.height, shot: tag },
});

/**
 * The demo's request bodies for the trajectory in `ours` (our request bodies, in order;
 * request i holds i model turns). `screen` is the physical screen size.
 */
export function referenceBodies(ours: readonly unknown[], policy: ReferencePolicy, screen: { width: number; height: number }): Json[] {
  const last = ours[ours.length - 1];
  if (!isObj(last)) return [];
  const size = referenceScreenshotSize(screen.width, screen.height);
  const messages = list(last.messages).filter(isObj);
  const first = messages[0];
  const taskText = list(first?.content).filter((b) => isObj(b) && b.type === 'text').map(stripCache);
  const assistants = messages.filter((m) => m.role === 'assistant');

  // The whole trajectory in the demo's shape: the task, then each turn and its screenshots.
  const all: Json[] = [{ role: 'user', content: [...taskText, shot('0', size)] }];
  assistants.forEach((assistant, step) => {
    const content = list(assistant.content).map(stripCache);
    all.push({ role: 'assistant', content });
    const results = content
      .filter((b): b is Json => isObj(b) && b.type === 'tool_use')
      .map((use, call) => ({ type: 'tool_result', tool_use_id: use.id, content: [shot(`${step + 1}.${call}`, size)] }));
    if (results.length) all.push({ role: 'user', content: results });
  });

  return ours.map((body, index) => {
    const b = isObj(body) ? body : {};
    // Request `index` has seen `index` turns: the task message plus a turn and its answer each.
    const upTo = 1 + 2 * Math.min(index, assistants.length);
    const messages = structuredClone(all.slice(0, upTo));
    if (policy === 'keep-3') keepNewestImages(messages, 3);
    else cacheNewestUserMessages(messages, 3);
    return { ...(b.system !== undefined ? { system: b.system } : {}), tools: b.tools ?? [], messages };
  });
}

function images(messages: Json[]): Array<{ parent: unknown[]; index: number }> {
  const found: Array<{ parent: unknown[]; index: number }> = [];
  for (const message of messages) {
    for (const block of list(message.content)) {
      if (!isObj(block)) continue;
      if (block.type === 'image') found.push({ parent: message.content as unknown[], index: (message.content as unknown[]).indexOf(block) });
      if (block.type === 'tool_result') {
        const inner = list(block.content);
        inner.forEach((part, index) => {
          if (isObj(part) && part.type === 'image') found.push({ parent: inner, index });
        });
      }
    }
  }
  return found;
}

function keepNewestImages(messages: Json[], keep: number): void {
  const found = images(messages);
  const drop = found.slice(0, Math.max(0, found.length - keep));
  // Remove from the back of each parent so earlier indices stay valid.
  for (const { parent, index } of drop.reverse()) parent.splice(index, 1);
}

function cacheNewestUserMessages(messages: Json[], count: number): void {
  let left = count;
  for (let i = messages.length - 1; i >= 0 && left > 0; i--) {
    const message = messages[i]!;
    const content = list(message.content);
    if (message.role !== 'user' || content.length === 0) continue;
    const lastBlock = content[content.length - 1];
    if (isObj(lastBlock)) lastBlock.cache_control = { type: 'ephemeral' };
    left -= 1;
  }
}
