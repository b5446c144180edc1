/**
 * Validates every example of the OpenAPI document against the schema it illustrates, with the
 * validator the suite uses. Usage: tsx scripts/checks/check-examples.ts [path/to/openapi.yaml]
 * Prints the number checked and each failure; exits 1 on any failure or when none was found.
 */
import { ContractDocument, DEFAULT_OPENAPI_FILE } from '../../fixtures/contract/document.ts';
import { checkExamples } from '../../fixtures/contract/examples.ts';
import { ContractValidator } from '../../fixtures/contract/validator.ts';

const file = process.argv[2] ?? DEFAULT_OPENAPI_FILE;
const { checked, failures } = checkExamples(new ContractValidator(ContractDocument.fromFile(file)));

for (const { example, errors } of failures) {
  console.error(`✗ ${example.location} does not match ${example.schemaPointer}`);
  for (const error of errors) console.error(`    ${error}`);
}
console.log(`${checked} examples checked in ${file}: ${checked - failures.length} valid, ${failures.length} invalid.`);
if (checked === 0) console.error('No example found: the check would prove nothing.');
process.exitCode = failures.length > 0 || checked === 0 ? 1 : 0;
