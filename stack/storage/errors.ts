// Error answers shaped like hosted Supabase Storage's: the body carries the meaningful status as a
// string (`statusCode`), the HTTP status is 400 for every client error (500 for server errors),
// except where hosted says otherwise (stack/PLATFORM.md: Storage).

export class StorageError extends Error {
  constructor(
    /** The status hosted puts in the body. */
    readonly statusCode: number,
    readonly code: string,
    /** Hosted's older `error` field (a short label, or the code). */
    readonly error: string,
    message: string,
    /** The HTTP status of the answer; hosted answers 400 for client errors. */
    readonly httpStatus = statusCode >= 500 ? 500 : 400,
  ) {
    super(message);
    this.name = 'StorageError';
  }

  body(): Record<string, string> {
    return {
      statusCode: String(this.statusCode),
      code: this.code,
      error: this.error,
      message: this.message,
    };
  }
}

export const ERRORS = {
  noSuchBucket: () => new StorageError(404, 'NoSuchBucket', 'Bucket not found', 'Bucket not found'),
  noSuchKey: () => new StorageError(404, 'NoSuchKey', 'not_found', 'Object not found'),
  invalidKey: (key: string) =>
    new StorageError(400, 'InvalidKey', 'InvalidKey', `Invalid key: ${key}`),
  accessDenied: (message = 'Access denied', httpStatus?: number) =>
    new StorageError(403, 'AccessDenied', 'Unauthorized', message, httpStatus),
  duplicate: () => new StorageError(409, 'Duplicate', 'Duplicate', 'The resource already exists'),
  tooLarge: () =>
    new StorageError(
      413,
      'EntityTooLarge',
      'Payload too large',
      'The object exceeded the maximum allowed size',
    ),
  invalidMimeType: (mimeType: string) =>
    new StorageError(
      415,
      'InvalidMimeType',
      'invalid_mime_type',
      `mime type ${mimeType} is not supported`,
    ),
  invalidRequest: (message: string) =>
    new StorageError(400, 'InvalidRequest', 'InvalidRequest', message),
  notFoundRoute: (method: string, url: string) =>
    new StorageError(404, 'NotFound', 'Not Found', `Route ${method}:${url} not found`, 404),
  internal: () => new StorageError(500, 'InternalError', 'Internal', 'Internal Server Error'),
};

/** A Postgres error from a request running as the caller, as hosted maps it. */
export function fromDbError(err: unknown): StorageError | null {
  const e = err as { code?: string; message?: string };
  if (e.code === '42501') {
    return ERRORS.accessDenied(
      e.message?.includes('row-level security')
        ? 'new row violates row-level security policy'
        : (e.message ?? 'Access denied'),
    );
  }
  if (e.code === '23505') return ERRORS.duplicate();
  if (e.code === '22P02' || e.code === '22021') return ERRORS.invalidRequest(e.message ?? '');
  return null;
}
