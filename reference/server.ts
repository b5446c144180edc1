import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { buildServers } from './app.ts';
import { CliError, parseCli, usage, type CliCommand } from './cli.ts';
import { findFault, listFaults } from './faults/index.ts';
import type { ReferenceOptions } from './options.ts';
import type { SeedFile } from './seed-types.ts';
import { listVariants } from './variants.ts';
import { applyVariations, listVariations } from './variations/index.ts';

const host = '127.0.0.1';

/** Listens on 127.0.0.1 and gives the address, with the interface's path prefix. */
async function listen(app: FastifyInstance, port: number, prefix: string): Promise<string> {
  await app.listen({ host, port });
  const address = app.server.address();
  const actual = typeof address === 'object' && address !== null ? address.port : port;
  return `http://${host}:${actual}${prefix}`;
}

async function serve(command: Extract<CliCommand, { kind: 'serve' }>): Promise<void> {
  // A seed file replaces the committed seed, e.g. one with per-run credentials (scripts/checks/check-canary.ts).
  const seed = command.seedFile === undefined ? undefined : (JSON.parse(readFileSync(command.seedFile, 'utf8')) as SeedFile);
  const given: ReferenceOptions = seed === undefined ? command.options : { ...command.options, seed };
  const options = command.variations === undefined ? given : applyVariations(given, command.variations);
  // parseCli accepted only a known fault name.
  const fault = command.fault === undefined ? undefined : findFault(command.fault);
  const servers = await buildServers(fault === undefined ? options : fault.apply(options));
  const layout = servers.main.reference.config.layout;
  const baseUrl = await listen(servers.main, command.port, layout.basePath);
  const realtimePort = command.realtimePort ?? (command.port === 0 ? 0 : command.port + 1);
  const realtimeUrl =
    servers.realtime === undefined
      ? `${baseUrl.slice(0, baseUrl.length - layout.basePath.length)}${layout.realtimeBasePath}`
      : await listen(servers.realtime, realtimePort, layout.realtimeBasePath);
  process.stdout.write(`reference listening on ${baseUrl} (realtime ${realtimeUrl})\n`);

  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    Promise.all([servers.main.close(), servers.realtime?.close()]).then(
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
  } else if (command.kind === 'list-variations') {
    process.stdout.write(`${JSON.stringify(listVariations(), null, 2)}\n`);
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
