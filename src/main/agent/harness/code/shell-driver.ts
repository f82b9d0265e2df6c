import type { Interpreter } from './interpreter.js';

/**
 * The bash program a persistent shell session runs (`bash --noprofile --norc -c DRIVER`),
 * speaking python-driver.ts's protocol on fd 3 so one session class serves both. A block
 * comes on stdin as its lines, then a line `__DESKPILOT_BLOCK_END_<nonce>` (the nonce
 * is 24 random hex digits: no line of a block is that line); the driver then points its
 * own stdin at /dev/null, so a command reading stdin reads nothing of the protocol.
 * The block runs by `eval` in the driver's own shell, so `cd`, variables, functions and
 * `export`s survive to the next block, with fds 3 and 4 closed for it (a command cannot
 * write into the protocol). After it: the end marker `\x00<nonce>\x00` on stdout and
 * stderr, then {"type": "done", "ok": status == 0, "error"?: "exit status N"} on fd 3
 * (and once at its start {"type":"ready"}, as the Python driver says it waits for code).
 * A block that ends the shell (`exit`, `set -e` then a failure) is a crash: the next
 * block starts a fresh session and says so. No computer API here: bash has no RPC.
 */
export const SHELL_DRIVER = String.raw`
exec 4<&0 0</dev/null
__dp_end="__DESKPILOT_BLOCK_END_$DESKPILOT_CODE_SESSION"
printf '{"type":"ready"}\n' >&3
while :; do
  __dp_code=''
  while :; do
    IFS= read -r -u 4 __dp_line || exit 0
    [ "$__dp_line" = "$__dp_end" ] && break
    __dp_code+="$__dp_line"$'\n'
  done
  eval "$__dp_code" 3>&- 4<&-
  __dp_status=$?
  printf '\0%s\0' "$DESKPILOT_CODE_SESSION"
  printf '\0%s\0' "$DESKPILOT_CODE_SESSION" >&2
  if [ "$__dp_status" -eq 0 ]; then
    printf '{"type":"done","ok":true}\n' >&3
  else
    printf '{"type":"done","ok":false,"error":"exit status %d"}\n' "$__dp_status" >&3
  fi
done
`;

export const SHELL: Interpreter = {
  name: 'the bash session',
  missing: 'is bash installed?',
  command: () => ({ file: 'bash', args: ['--noprofile', '--norc', '-c', SHELL_DRIVER], env: {} }),
  // The block's lines, a line break if it has none at its end, then the end line.
  frame: (code, nonce) => `${code}${code.endsWith('\n') ? '' : '\n'}__DESKPILOT_BLOCK_END_${nonce}\n`,
};
