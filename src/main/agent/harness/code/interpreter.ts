/**
 * What differs between the interpreters a session can hold (Python, bash): the program
 * that runs the driver, how a block is handed to it on stdin, and its name in errors.
 * Both drivers speak the same protocol on fd 3 (python-driver.ts, shell-driver.ts).
 */
export interface Interpreter {
  /** "the Python interpreter", "the bash session": said when it ends or cannot start. */
  readonly name: string;
  /** What to install when it cannot start (doctor checks python3). */
  readonly missing: string;
  /** The program and arguments that start the driver. */
  command(): { file: string; args: string[]; env: NodeJS.ProcessEnv };
  /** The text written on the driver's stdin to run one block (`nonce`: the session's). */
  frame(code: string, nonce: string): string;
}
