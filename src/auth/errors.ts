// Why a request was refused before it reached an operation.

export class AuthenticationError extends Error {
  override readonly name = 'AuthenticationError';
}
