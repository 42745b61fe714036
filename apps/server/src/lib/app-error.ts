import { type ErrorCode, errorCatalogue, type FieldError } from '@haversack/contracts';

/**
 * The one way a service refuses something. The error handler turns it into the envelope of DESIGN §3 with
 * the catalogue's status; the message defaults to the catalogue's and may be more specific.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: FieldError[] | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    code: ErrorCode,
    message?: string,
    options: { details?: FieldError[]; status?: number; headers?: Record<string, string> } = {},
  ) {
    super(message ?? errorCatalogue[code].message);
    this.name = 'AppError';
    this.code = code;
    this.status = options.status ?? errorCatalogue[code].status;
    this.details = options.details;
    this.headers = options.headers;
  }

  static validation(details: FieldError[], message?: string): AppError {
    return new AppError('VALIDATION_ERROR', message ?? errorCatalogue.VALIDATION_ERROR.message, { details });
  }

  static notFound(what = 'The requested item could not be found.'): AppError {
    return new AppError('RESOURCE_NOT_FOUND', what);
  }
}
