/**
 * The hidden list a person reads (docs/CONFIG.md "Hidden in every sandboxed mode") is
 * the list the sandbox hides (hidden-paths.ts hiddenCandidates), both ways: a path added
 * to the code without the docs, or named in the docs and not hidden, fails here.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hiddenCandidates } from '../../src/main/sandbox/hidden-paths.js';

const docs = fs.readFileSync(new URL('../../docs/CONFIG.md', import.meta.url), 'utf8');

/** The paths named in backticks in the section's bullet that starts with `label`. */
function bullet(label: string): string[] {
  const start = docs.indexOf('**Hidden in every sandboxed mode**');
  const section = docs.slice(start, docs.indexOf('\n\n', docs.indexOf('\n- ', start)));
  const item = section.split('\n- ').find((b) => b.startsWith(label));
  if (!item) throw new Error(`docs/CONFIG.md: no "- ${label}" in the hidden list`);
  return [...item.matchAll(/`([~/$][^`]*)`/g)].map((m) => m[1]!);
}

// Each variable the list reads from the environment, set to a path that names it.
const VARIABLES = ['DESKPILOT_HOME', 'XAUTHORITY', 'XDG_RUNTIME_DIR', 'SSH_AUTH_SOCK', 'DBUS_SESSION_BUS_ADDRESS'];
const env = Object.fromEntries(VARIABLES.map((name) => [name, name === 'DBUS_SESSION_BUS_ADDRESS' ? `unix:path=/ENV/${name}` : `/ENV/${name}`]));

/** What the code hides on `platform`, written the way the docs write it (~/… and $NAME). */
function hidden(platform: NodeJS.Platform): string[] {
  return hiddenCandidates({ platform, home: '/HOME', env, display: false }).map((p) => p.replace(/^\/HOME\//, '~/').replace(/^\/ENV\//, '$'));
}

describe('docs/CONFIG.md names exactly what the sandbox hides', () => {
  it('on Linux: the common bullet and the Linux one', () => {
    expect([...bullet('everywhere'), ...bullet('on Linux')].sort()).toEqual(hidden('linux').sort());
  });

  it('on macOS: the common bullet and the macOS one', () => {
    expect([...bullet('everywhere'), ...bullet('on macOS')].sort()).toEqual(hidden('darwin').sort());
  });

  it('each path is named once', () => {
    const all = [...bullet('everywhere'), ...bullet('on Linux'), ...bullet('on macOS')];
    expect(all.length).toBe(new Set(all).size);
  });
});
