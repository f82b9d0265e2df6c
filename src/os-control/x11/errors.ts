/** An X protocol error or a failed connection, with the error code and request when the server sent one. */
export class X11Error extends Error {
  constructor(
    message: string,
    readonly code?: number,
    readonly majorOpcode?: number,
  ) {
    super(message);
    this.name = 'X11Error';
  }
}
