/**
 * An API error with its HTTP status. Handlers of both versions throw it; the HTTP error handler writes it in
 * the version's shape (v2 `{"ok":false,"error","code"}`, v3 `{"error"}`). Anything else thrown is a bug: 500.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** fastify's name for the status, so error handlers that know nothing of ApiError (the admin API's) keep it. */
  get statusCode(): number {
    return this.status;
  }
}

/** A parameter that is missing, malformed or of the wrong type: 422, naming the parameter. */
export function badParameter(name: string, problem: string): ApiError {
  return new ApiError(422, `failed to parse parameter ${name}: ${problem}`);
}
