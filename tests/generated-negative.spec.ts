/**
 * Generated invalid inputs: for every operation, requests derived from spec/openapi.yaml that each
 * break exactly one documented constraint. Where the interface states a rejection the answer must be
 * a 4xx with the error shape; where it states none, a valid 2xx or a 4xx; never a 5xx. Refused
 * participant writes are read back (nothing was created). Seed and run count: GENERATED_SEED and
 * GENERATED_RUNS (fixtures/generate/settings.ts).
 */

import { negativeTitle } from '../fixtures/index.ts';
import { declareGeneratedTests, invalidInputPlans } from './support/generated.ts';

declareGeneratedTests(invalidInputPlans(), negativeTitle);
