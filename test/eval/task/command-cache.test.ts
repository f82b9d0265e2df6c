import { describe, expect, it } from 'vitest';
import { CommandSyntaxError, downloadCachePath, cacheFilePath, shlexSplit, uuid5, vmCommand, vmPath } from '../../../src/main/eval/task/index.js';

// Expected values are Python's own (python3: uuid.uuid5(uuid.NAMESPACE_URL, url), shlex.split).
describe('OSWorld file cache layout', () => {
  it('uuid5 over NAMESPACE_URL is Python uuid.uuid5', () => {
    expect(uuid5('6ba7b811-9dad-11d1-80b4-00c04fd430c8', 'https://example.com/a.xlsx')).toBe('03fb1144-4ca2-5df0-a5fd-eabb7a9b1e57');
  });

  it("a download step's file is <cache>/<task id>/<uuid5(url)>_<basename(path)>, as setup.py's _download_setup caches it", () => {
    const url =
      'https://drive.usercontent.google.com/download?id=19bEBoYIzwIeTtqSR5Re0XTCN26yXXynn&export=download&authuser=0&confirm=t&uuid=7f9458ab-0e8a-42ff-a10a-eba01f611bc3&at=APZUnTX6GDMmAf-MOSZ58xzrFYS1:1708010153224';
    expect(downloadCachePath('/c', '4d117223-a354-47fb-8b45-62ab1390a95f', url, 'setup.sh')).toBe('/c/4d117223-a354-47fb-8b45-62ab1390a95f/245d7cc0-16e4-58cb-b8f5-4b686a90c49b_setup.sh');
    expect(downloadCachePath('/c', 't', 'https://example.com/a.xlsx', '/home/user/Desktop/a.xlsx')).toBe('/c/t/03fb1144-4ca2-5df0-a5fd-eabb7a9b1e57_a.xlsx');
  });

  it('a cloud_file dest stays inside the task folder; a task id cannot leave the cache', () => {
    expect(cacheFilePath('/c', 't', 'gold.xlsx')).toBe('/c/t/gold.xlsx');
    expect(() => cacheFilePath('/c', 't', '../other/gold.xlsx')).toThrow('leaves the task');
    expect(() => cacheFilePath('/c', '../t', 'gold.xlsx')).toThrow('cannot name a cache folder');
    expect(() => cacheFilePath('/c', '..', 'gold.xlsx')).toThrow('cannot name a cache folder');
  });
});

describe('commands and paths of "the VM"', () => {
  it('splits like shlex.split', () => {
    expect(shlexSplit(`echo 'a b' "c \\" d" e\\ f "\\x" `)).toEqual(['echo', 'a b', 'c " d', 'e f', '\\x']);
    expect(shlexSplit("a''b \"\" ''")).toEqual(['ab', '', '']);
    expect(() => shlexSplit('echo "open')).toThrow(CommandSyntaxError);
    expect(() => shlexSplit('echo \\')).toThrow(CommandSyntaxError);
  });

  it('a string without shell is split and ~/ expanded; with shell it is one script', () => {
    expect(vmCommand('cat ~/a.txt "~/b c"', false, '/h')).toEqual({ shell: false, argv: ['cat', '/h/a.txt', '/h/b c'] });
    expect(vmCommand(['ls', '~/x', '~'], undefined, '/h')).toEqual({ shell: false, argv: ['ls', '/h/x', '~'] });
    expect(vmCommand('cat ~/a.txt | wc -l', true, '/h')).toEqual({ shell: true, script: 'cat ~/a.txt | wc -l', args: [] });
    expect(vmCommand(['echo $0 $1', 'x', 'y'], true, '/h')).toEqual({ shell: true, script: 'echo $0 $1', args: ['x', 'y'] });
    expect(() => vmCommand('   ', false, '/h')).toThrow('the command is empty');
  });

  it("maps OSWorld's home, ~ and relative paths to the desktop's HOME", () => {
    expect(vmPath('/home/user/Desktop/a.txt', '/h')).toBe('/h/Desktop/a.txt');
    expect(vmPath('/home/user', '/h')).toBe('/h');
    expect(vmPath('~/a.txt', '/h')).toBe('/h/a.txt');
    expect(vmPath('~', '/h')).toBe('/h');
    expect(vmPath('eval.sh', '/h')).toBe('/h/eval.sh');
    expect(vmPath('/tmp/x', '/h')).toBe('/tmp/x');
    expect(vmPath('/home/username/x', '/h')).toBe('/home/username/x');
  });
});
