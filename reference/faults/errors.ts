/**
 * Faults of the error bodies, whatever the operation.
 * Part of the fault catalogue: reference/faults/index.ts puts them in its order.
 */
import { buildErrorBody } from '../errors.ts';
import { fault, OPERATIONS, withBehaviour, type Fault } from './tools.ts';

export const faults: readonly Fault[] = [
  fault(
    'error-status-code-400',
    'Every error body says statusCode 400, whatever the HTTP status.',
    ['ERR-04', 'ERR-01', 'ERR-03', 'LOGIN-03', 'LOGIN-04', 'MST-14'],
    OPERATIONS,
    withBehaviour({ errorBody: (_status, message, includeError) => buildErrorBody(400, message, includeError) }),
  ),
  fault(
    'error-field-dropped',
    'Error bodies never carry error (the 400 of transcription statistics, the 403, the 500 of close and the non-developer 401 require it).',
    ['ERR-02', 'ERR-03', 'TRS-04', 'MST-14'],
    OPERATIONS,
    withBehaviour({ errorBody: (status, message) => buildErrorBody(status, message, false) }),
  ),
  fault(
    'error-name-not-status-name',
    "Error bodies carry error 'Error' instead of the HTTP status name.",
    ['ERR-05', 'TRS-04', 'MST-14'],
    OPERATIONS,
    withBehaviour({
      errorBody: (status, message, includeError) => ({ ...buildErrorBody(status, message, includeError), ...(includeError ? { error: 'Error' } : {}) }),
    }),
  ),
];
