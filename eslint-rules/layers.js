/**
 * One layer table for the whole of src/, enforced on every relative import — the way
 * VS Code's `code-layering` rule does it, instead of a fence per folder.
 *
 * A file belongs to the first layer whose `paths` entry is a prefix of its path
 * (repository-relative, forward slashes; the most specific entries come first). It may
 * import from its own layer and from the layers named in `may`. Anything else is an
 * upward (or sideways) import and fails `npm run lint`.
 *
 * Bare package imports (electron, node:*) are fenced separately in eslint.config.js:
 * this rule only knows our own folders.
 */
import path from 'node:path';

/** @typedef {{ name: string, paths: string[], may: string[] }} Layer */

/**
 * Bottom to top. `may` lists every lower layer a layer may use, spelled out (no
 * transitivity), so the table reads as the answer to "can X import Y?".
 * @type {Layer[]}
 */
export const LAYERS = [
  { name: 'shared', paths: ['src/shared/'], may: [] },
  // The data folder (one file every main-side layer needs to find ~/.deskpilot) and the process
  // table (stopping what a run, a QA case or an eval task started, all of it).
  { name: 'paths', paths: ['src/main/paths.ts', 'src/main/private-files.ts', 'src/main/process-tree.ts'], may: ['shared'] },
  { name: 'os-control', paths: ['src/os-control/'], may: ['shared'] },
  // The sandbox every command runs in (shell tool, code interpreter): below the agent; paths for process-tree.ts (ending what it started).
  { name: 'sandbox', paths: ['src/main/sandbox/'], may: ['shared', 'paths'] },
  { name: 'config', paths: ['src/main/config/'], may: ['shared', 'paths'] },
  { name: 'sessions', paths: ['src/main/sessions/'], may: ['shared', 'paths'] },
  // QA is a client of the agent (it starts runs like the CLI does); listed before
  // `agent` so its folder is matched first while it still lives under agent/.
  { name: 'qa', paths: ['src/main/qa/'], may: ['shared', 'paths', 'os-control', 'sandbox', 'config', 'sessions', 'agent'] },
  { name: 'agent', paths: ['src/main/agent/'], may: ['shared', 'paths', 'os-control', 'sandbox', 'config', 'sessions'] },
  // `deskpilot doctor`: checks the machine and the config; a client like the CLI.
  { name: 'doctor', paths: ['src/main/doctor/'], may: ['shared', 'paths', 'os-control', 'sandbox', 'config', 'sessions', 'agent'] },
  // `deskpilot eval` (issue 32): task format, checkers, reports, and the runner that starts runs like QA does.
  { name: 'eval', paths: ['src/main/eval/'], may: ['shared', 'paths', 'os-control', 'sandbox', 'config', 'sessions', 'agent', 'qa'] },
  { name: 'service', paths: ['src/main/service/'], may: ['shared', 'paths', 'os-control', 'sandbox', 'config', 'sessions', 'agent', 'qa'] },
  { name: 'server', paths: ['src/main/server/'], may: ['shared', 'paths', 'os-control', 'sandbox', 'config', 'sessions', 'agent', 'qa', 'service'] },
  { name: 'electron', paths: ['src/main/electron/'], may: ['shared', 'paths', 'os-control', 'sandbox', 'config', 'sessions', 'agent', 'qa', 'service'] },
  // `deskpilot mcp` / `deskpilot acp`: front ends for other agents' protocols; they host runs in the service and serve its page.
  { name: 'protocols', paths: ['src/main/mcp-server/', 'src/main/acp/'], may: ['shared', 'paths', 'os-control', 'sandbox', 'config', 'sessions', 'agent', 'service', 'server'] },
  { name: 'cli', paths: ['src/main/cli/', 'src/main/cli.ts'], may: ['shared', 'paths', 'os-control', 'sandbox', 'config', 'sessions', 'agent', 'qa', 'doctor', 'eval', 'service', 'server', 'protocols'] },
  { name: 'preload', paths: ['src/preload/'], may: ['shared'] },
  { name: 'renderer', paths: ['src/renderer/'], may: ['shared'] },
];

/** The layer of a repository-relative path, or undefined outside src/. */
export function layerOf(relativePath) {
  const p = relativePath.split(path.sep).join('/');
  return LAYERS.find((layer) => layer.paths.some((prefix) => p === prefix || p.startsWith(prefix)));
}

/** @type {import('eslint').Rule.RuleModule} */
const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports point down the layer table in eslint-rules/layers.js' },
    schema: [],
    messages: {
      upward: "Layer '{{from}}' may not import from layer '{{to}}' ({{target}}). {{from}} may use: {{allowed}}. See the layer table in eslint-rules/layers.js and docs/ARCHITECTURE.md.",
      unknown: "'{{file}}' is in src/ but in no layer: add it to the table in eslint-rules/layers.js.",
    },
  },
  create(context) {
    const root = context.cwd;
    const file = path.relative(root, context.filename);
    if (!file.startsWith('src' + path.sep)) return {};
    const from = layerOf(file);
    function check(node, source) {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      if (!from) {
        context.report({ node, messageId: 'unknown', data: { file } });
        return;
      }
      const target = path.relative(root, path.resolve(path.dirname(context.filename), source));
      // Sources import '.js' that is '.ts' on disk: compare by folder prefix, and for
      // single-file layers by the name without extension.
      const to = layerOf(target) ?? layerOf(target.replace(/\.js$/, '.ts'));
      if (!to || to.name === from.name || from.may.includes(to.name)) return;
      context.report({
        node,
        messageId: 'upward',
        data: { from: from.name, to: to.name, target: target.split(path.sep).join('/'), allowed: from.may.join(', ') || 'nothing' },
      });
    }
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};

/**
 * The agent's front door (issue 29 item 1): outside src/main/agent/, runs start through
 * src/main/agent/index.ts (`launchRun`), never through the runner's own files — so every
 * surface gets the same gate, scrubber, describer and sandbox, with its surface named.
 * Inside the agent, the runner's files are its own and the door's: its other rooms
 * (replay, record, grounding, harness …) start a run through the door too (a replay is a
 * driver) and share what they need with the runner from a file below both
 * (agent/action-target.ts), so no room reaches into the runner that reaches into it.
 */
export const RUNNER_PATHS = ['src/main/agent/runner.ts', 'src/main/agent/runner/'];
/** The agent's files that may use the runner's: the door and the runner itself. */
const RUNNER_USERS = ['src/main/agent/index.ts', ...RUNNER_PATHS];

/** @type {import('eslint').Rule.RuleModule} */
const frontDoor = {
  meta: {
    type: 'problem',
    docs: { description: 'Outside src/main/agent/, runs start through agent/index.ts' },
    schema: [],
    messages: {
      internal: "'{{target}}' is the runner's own: outside src/main/agent/ start runs with launchRun from src/main/agent/index.ts (the front door).",
      room: "'{{target}}' is the runner's own: start a run through src/main/agent/index.ts (launchRun, a driver of your own) and share a piece with the runner from a file below both (as agent/action-target.ts), not from runner/.",
    },
  },
  create(context) {
    const root = context.cwd;
    const file = path.relative(root, context.filename).split(path.sep).join('/');
    if (!file.startsWith('src/')) return {};
    const insideAgent = file.startsWith('src/main/agent/');
    if (insideAgent && RUNNER_USERS.some((p) => file === p || file.startsWith(p))) return {};
    function check(node, source) {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = path.relative(root, path.resolve(path.dirname(context.filename), source)).split(path.sep).join('/').replace(/\.js$/, '.ts');
      if (RUNNER_PATHS.some((p) => target === p || target.startsWith(p))) context.report({ node, messageId: insideAgent ? 'room' : 'internal', data: { target } });
    }
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};

export default { rules: { layers: rule, 'front-door': frontDoor } };
