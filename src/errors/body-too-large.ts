// A request body over MAX_BODY_BYTES: the client's error, answered 413 by the edge of each
// surface (its own body shape there), and counted as 413 wherever an outcome is recorded.

export class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError';
  constructor() {
    super('Request body is too large');
  }
}
