import { EXIT } from './exit-codes.js';

/** A `deskpilot eval` input it will not run: said once on stderr, with its exit code (2 unless said: bad input). */
export class EvalRefusal extends Error {
  constructor(
    message: string,
    readonly code: number = EXIT.usage,
  ) {
    super(message);
    this.name = 'EvalRefusal';
  }
}
