import { STATUS_CODES } from 'node:http';

/** An error that the error handler turns into the interface's error body with the given status. */
export class HttpError extends Error {
  readonly statusCode: number;
  /** 401 bodies omit `error` unless the variant asks for it; some documented 401s always carry it. */
  readonly alwaysIncludeError: boolean;

  constructor(statusCode: number, message: string, alwaysIncludeError = false) {
    super(message);
    this.name = 'HttpError';
    this.statusCode = statusCode;
    this.alwaysIncludeError = alwaysIncludeError;
  }
}

export interface ErrorBody {
  statusCode: number;
  error?: string;
  message: string;
}

export function statusName(statusCode: number): string {
  return STATUS_CODES[statusCode] ?? 'Error';
}

export function buildErrorBody(statusCode: number, message: string, includeError: boolean): ErrorBody {
  return includeError ? { statusCode, error: statusName(statusCode), message } : { statusCode, message };
}

export const badRequest = (message: string): HttpError => new HttpError(400, message);
export const unauthorized = (message: string): HttpError => new HttpError(401, message);
export const forbidden = (message: string): HttpError => new HttpError(403, message);
export const notFound = (message: string): HttpError => new HttpError(404, message);
