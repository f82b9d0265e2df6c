/**
 * Provider bench: what one model turn costs the harness itself, per provider family,
 * against an instantly answering fake model on loopback (real SDK, streaming): render
 * the transcript (10 steps, 3 screenshots of 1280×800 kept, the rest pruned), send,
 * parse the stream, parse the tool calls into actions.
 *
 * Baseline, measured in the same run: the same request body (captured from the
 * provider's own request) POSTed with plain fetch and the reply read to the end —
 * the wire and the fake's own work, without any of ours. The difference is our
 * rendering + SDK + parsing overhead per step.
 *
 *   npx tsx bench/providers.bench.ts [--turns 30]
 */
import sharp from 'sharp';
import { createProvider } from '../src/main/agent/providers/index.js';
import type { Provider } from '../src/main/agent/providers/types.js';
import type { TranscriptImage, TranscriptItem } from '../src/main/agent/transcript.js';
import type { ObservationRecord } from '../src/shared/observation.js';
import { startFakeModel, type FakeModelServer, type FakeToolCall } from '../test/harness/fake-model/index.js';
import { median } from './lib/stats.js';
import { BUILTIN_TOOL_SPECS } from '../src/main/agent/providers/builtin-tools.js';

const TURNS = (() => {
  const i = process.argv.indexOf('--turns');
  return i > 0 ? Number(process.argv[i + 1]) : 30;
})();
const W = 1280;
const H = 800;

async function screenshot(): Promise<Buffer> {
  // A busy image (noise) so the JPEG has a realistic size, not a flat colour.
  const raw = Buffer.alloc(W * H * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 2654435761) >>> 24;
  return sharp(raw, { raw: { width: W, height: H, channels: 3 } }).jpeg({ quality: 85 }).toBuffer();
}

function transcript(jpeg: Buffer, family: string): TranscriptItem[] {
  const img = (n: number): TranscriptImage => ({ observationId: `o${n}`, mediaType: 'image/jpeg', width: W, height: H, load: async () => jpeg });
  const items: TranscriptItem[] = [{ role: 'user', text: 'Fill in the form and submit it.', image: img(0), imagePruned: true }];
  for (let step = 1; step <= 10; step++) {
    const callId = `call_${step}`;
    const name = family === 'openai' ? 'computer' : family === 'anthropic' ? 'left_click' : 'computer';
    items.push({ role: 'assistant', text: `Step ${step}.`, calls: [{ callId, name, input: {}, actions: [] }] });
    items.push({ role: 'tool_result', callId, name, ok: true, text: '', image: img(step), imagePruned: step <= 7 });
  }
  return items;
}

const observation: ObservationRecord = {
  id: 'o10',
  takenAt: 0,
  display: { id: '0', name: '', bounds: { x: 0, y: 0, width: 2560, height: 1600 }, scaleFactor: 1, primary: true },
  capture: { width: 2560, height: 1600 },
  region: { x: 0, y: 0, width: 2560, height: 1600 },
  image: { width: W, height: H, format: 'jpeg' },
};

function reply(family: string): { text: string; toolCalls: FakeToolCall[] } {
  if (family === 'anthropic') return { text: 'Clicking Submit.', toolCalls: [{ name: 'left_click', toolsetName: 'computer', input: { coordinate: [640, 400] } }] };
  if (family === 'openai') return { text: 'Clicking Submit.', toolCalls: [{ name: 'computer', input: { actions: [{ type: 'click', button: 'left', x: 640, y: 400 }] } }] };
  return { text: 'Clicking Submit.', toolCalls: [{ name: 'computer', input: { action: 'left_click', coordinate: [640, 400] } }] };
}

async function benchFamily(fake: FakeModelServer, family: 'anthropic' | 'openai' | 'openai-compatible', jpeg: Buffer) {
  const model = family === 'anthropic' ? 'claude-sonnet-5-5' : family === 'openai' ? 'gpt-5.4' : 'llava';
  const provider: Provider = createProvider(
    { provider: family, model },
    { apiKey: 'k', baseUrl: family === 'anthropic' ? fake.anthropicBaseUrl : fake.openaiBaseUrl, timeoutMs: 10_000 },
  );
  fake.setFallback(() => reply(family));
  const items = transcript(jpeg, family);
  // The OpenAI provider chains: give the last turn a response id so it sends only the tail.
  if (family === 'openai') (items[items.length - 2] as { providerState?: unknown }).providerState = { responseId: 'resp_prev' };
  const req = { system: 'You are DeskPilot.', transcript: items, observation, tools: BUILTIN_TOOL_SPECS };
  const ours: number[] = [];
  const raw: number[] = [];
  for (let i = 0; i < TURNS + 3; i++) {
    const before = fake.requests.length;
    const t0 = performance.now();
    await provider.turn(req, new AbortController().signal);
    const t1 = performance.now();
    const sent = fake.requests[before]!;
    const body = JSON.stringify(sent.body);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const t2 = performance.now();
    const res = await fetch(`${fake.url}${sent.path}`, { method: 'POST', headers, body });
    await res.text();
    const t3 = performance.now();
    if (i >= 3) {
      ours.push(t1 - t0);
      raw.push(t3 - t2);
    }
  }
  const bytes = JSON.stringify(fake.requests.at(-1)!.body).length;
  return { family, ours: median(ours), raw: median(raw), bytes };
}

async function main() {
  const jpeg = await screenshot();
  const fake = await startFakeModel();
  try {
    console.log(`providers bench: ${TURNS} turns per family, transcript of 10 steps with 3 × ${W}×${H} JPEG (${Math.round(jpeg.length / 1024)} KB each)`);
    for (const family of ['anthropic', 'openai', 'openai-compatible'] as const) {
      const r = await benchFamily(fake, family, jpeg);
      console.log(
        `  ${r.family.padEnd(18)} provider.turn median ${r.ours.toFixed(1)} ms | same body via fetch ${r.raw.toFixed(1)} ms | ` +
          `our overhead ${(r.ours - r.raw).toFixed(1)} ms (${(r.ours / r.raw).toFixed(2)}×) | request ${Math.round(r.bytes / 1024)} KB`,
      );
    }
  } finally {
    await fake.close();
  }
}

void main();
