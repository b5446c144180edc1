/**
 * Generated valid inputs: for every operation, valid combinations of its documented parameters
 * (each flag combination crossed with each filter, paging at its edges, body fields at their
 * documented lengths, the target's own ids), each accepted with a body that matches the operation
 * and, where filters or paging apply, items that honour them. Where the interface leaves a valid
 * combination's answer open, a 4xx with the error shape is accepted too.
 */

import { positiveTitle } from '../fixtures/index.ts';
import { declareGeneratedTests, validInputPlans } from './support/generated.ts';

declareGeneratedTests(validInputPlans(), positiveTitle);
