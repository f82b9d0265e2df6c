import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The user a sandbox case runs as (issue 30: CI runs as root, so the same cases run as an
 * unprivileged user too). As root: a user made for the case (`useradd`, no home made),
 * removed by `remove`; as anyone else: that user, and `made` is false. Its folders are made
 * and given to it: `home` (with `~/.ssh/id_rsa` holding `USER KEY`), `workspace`, `outside`.
 */
export interface CaseUser {
  uid: number;
  gid: number;
  /** The user was made for the case (the spawn options must name it). */
  made: boolean;
  home: string;
  workspace: string;
  outside: string;
  remove(): void;
}

export function caseUser(prefix: string, base: string): CaseUser {
  const name = process.getuid!() === 0 ? `${prefix}${process.pid}` : undefined;
  const home = path.join(base, 'user-home');
  if (name) execFileSync('useradd', ['--no-create-home', '--home-dir', home, '--shell', '/bin/bash', name]);
  const uid = name ? Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim()) : process.getuid!();
  const gid = name ? Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim()) : process.getgid!();
  const workspace = path.join(base, 'user-ws');
  const outside = path.join(base, 'user-outside');
  for (const dir of [home, workspace, outside, path.join(home, '.ssh')]) {
    fs.mkdirSync(dir, { recursive: true });
    fs.chownSync(dir, uid, gid);
  }
  fs.writeFileSync(path.join(home, '.ssh', 'id_rsa'), 'USER KEY');
  fs.chownSync(path.join(home, '.ssh', 'id_rsa'), uid, gid);
  return { uid, gid, made: name !== undefined, home, workspace, outside, remove: () => (name ? execFileSync('userdel', [name]) : undefined) };
}
