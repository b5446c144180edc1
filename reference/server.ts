import { readFileSync } from 'node:fs';
import { buildApp } from './app.ts';
import { CliError, parseCli, usage, type CliCommand } from './cli.ts';
import { findFault, listFaults } from './faults/catalogue.ts';
import type { ReferenceOptions } from './options.ts';
import type { SeedFile } from './seed-types.ts';
import { listVariants } from './variants.ts';

const host = '127.0.0.1';

async function serve(command: Extract<CliCommand, { kind: 'serve' }>): Promise<void> {
  // A seed file replaces the committed seed, e.g. one with per-run credentials (scripts/check-canary.ts).
  const seed = command.seedFile === undefined ? undefined : (JSON.parse(readFileSync(command.seedFile, 'utf8')) as SeedFile);
  const options: ReferenceOptions = seed === undefined ? command.options : { ...command.options, seed };
  // parseCli accepted only a known fault name.
  const fault = command.fault === undefined ? undefined : findFault(command.fault);
  const app = await buildApp(fault === undefined ? options : fault.apply(options));
  await app.listen({ host, port: command.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : command.port;
  process.stdout.write(`reference listening on http://${host}:${port} (realtime http://${host}:${port}/v2)\n`);

  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`reference: error while stopping: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

async function main(argv: readonly string[]): Promise<void> {
  let command: CliCommand;
  try {
    command = parseCli(argv);
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    process.stderr.write(`reference: ${error.message}\n`);
    process.exit(2);
  }
  if (command.kind === 'help') {
    process.stdout.write(`${usage}\n`);
  } else if (command.kind === 'list-variants') {
    process.stdout.write(`${JSON.stringify(listVariants(), null, 2)}\n`);
  } else if (command.kind === 'list-faults') {
    process.stdout.write(`${JSON.stringify(listFaults(), null, 2)}\n`);
  } else {
    await serve(command);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`reference: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
