import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resumedSandbox } from '../../src/main/cli/resume-run.js';
import { startedWorkspace } from '../../src/main/sandbox/index.js';
import type { SandboxSummary } from '../../src/shared/sandbox.js';

// The two choices of a workspace this session added (issue 30): what a resumed run asks
// for (the log's sandbox, each part replaced by its flag) and where a program another one
// started works (its folder, else ~/DeskPilot).

const scratch = fs.realpathSync(fs.mkdtempSync('/var/tmp/dp-resume-sandbox-'));
const home = path.join(scratch, 'home');
const project = path.join(home, 'project');
fs.mkdirSync(project, { recursive: true });
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

const logged = (over: Partial<SandboxSummary> = {}): SandboxSummary => ({
  mode: 'workspace-write',
  enforcer: 'bubblewrap',
  workspace: '/w',
  writable: ['/a'],
  addDirs: ['/a'],
  network: true,
  display: true,
  ...over,
});

describe('resumedSandbox', () => {
  it("asks for the logged mode, workspace, folders, display and (workspace-write) network", () => {
    expect(resumedSandbox(logged(), {})).toEqual({ mode: 'workspace-write', workspace: '/w', defaultWorkspace: process.cwd(), addDirs: ['/a'], display: true, networkAccess: true });
  });

  it('each flag replaces its part; the logged network goes with workspace-write only', () => {
    expect(resumedSandbox(logged(), { sandbox: 'read-only', cd: '/x', addDir: ['/b'] })).toEqual({ mode: 'read-only', workspace: '/x', defaultWorkspace: process.cwd(), addDirs: ['/b'], display: true });
    // danger-full-access logs network on by definition: resumed into workspace-write, config decides.
    expect(resumedSandbox(logged({ mode: 'danger-full-access' }), { sandbox: 'workspace-write' })).not.toHaveProperty('networkAccess');
    expect(resumedSandbox(logged({ display: false }), { sandboxDisplay: true }).display).toBe(true);
    expect(resumedSandbox(logged({ display: false, addDirs: undefined }), {})).toMatchObject({ display: false, addDirs: [] });
  });

  it('a run logged without a sandbox asks what run would', () => {
    expect(resumedSandbox(undefined, { cd: '/x' })).toEqual({ workspace: '/x', defaultWorkspace: process.cwd(), addDirs: [] });
  });
});

describe('startedWorkspace', () => {
  it('a project folder is the workspace as is', () => {
    expect(startedWorkspace(project, { home })).toEqual({ workspace: project });
  });

  it('/ and the home folder fall back to ~/DeskPilot (made), saying why', () => {
    const fallback = path.join(home, 'DeskPilot');
    expect(startedWorkspace('/', { home })).toEqual({ workspace: fallback, note: `the workspace / is the root of the file system; commands work in ${fallback} instead (give --cd to choose)` });
    expect(fs.statSync(fallback).isDirectory()).toBe(true);
    expect(startedWorkspace(home, { home }).note).toBe(`the workspace ${home} is your home folder; commands work in ${fallback} instead (give --cd to choose)`);
  });
});
