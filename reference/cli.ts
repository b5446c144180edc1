import { findFault, FAULTS } from './faults/index.ts';
import { checkNumericOption, ReferenceOptionError, type NumericOption, type ReferenceOptions } from './options.ts';
import { isVariantName, listVariants } from './variants.ts';
import { checkVariations, isVariationName, listVariations } from './variations/index.ts';

/** Command line of reference/server.ts (docs/architecture.md). Pure: no I/O, no process exit. */

export class CliError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliError';
  }
}

export type CliCommand =
  | { kind: 'serve'; port: number; realtimePort?: number; options: ReferenceOptions; variations?: string[]; seedFile?: string; fault?: string }
  | { kind: 'list-variants' }
  | { kind: 'list-variations' }
  | { kind: 'list-faults' }
  | { kind: 'help' };

const numericFlags: Readonly<Record<string, NumericOption>> = {
  '--recording-delay-ms': 'recordingDelayMs',
  '--usage-limit': 'usageLimit',
  '--usage-window-ms': 'usageWindowMs',
  '--token-ttl-s': 'tokenTtlS',
  '--seed-scale': 'seedScale',
  '--key-pairs-at-start': 'keyPairsAtStart',
};

export const usage = `Usage: tsx reference/server.ts [options]
  --port N                 port on 127.0.0.1 (default 4010; 0 picks a free port)
  --variant NAME           switch on a documented variant (repeatable; see --list-variants)
  --list-variants          print the variants as JSON and exit
  --variation NAME         switch on an allowed variation of reference/variations/ (repeatable; other-choices: all
                           that combine; other-choices-alternates: the other side of each exclusive group; see
                           --list-variations)
  --list-variations        print the variations as JSON and exit
  --realtime-port N        port of the realtime listener when a variation gives it its own origin (default: --port + 1,
                           or a free port with --port 0)
  --fault NAME             switch on a fault of reference/faults/ (self-verification only)
  --list-faults            print the faults as JSON and exit
  --recording-delay-ms N   delay from recording end to available (default 300000)
  --usage-limit N          transcription statistics requests per account and window (default 100)
  --usage-window-ms N      length of the usage window (default 60000)
  --token-ttl-s N          bearer token lifetime in seconds (default 3600)
  --seed-scale N           multiply the seed's groups, participants, recordings and events (default 1)
  --key-pairs-at-start N   security key pairs to generate in the background from start-up (default 0)
  --seed FILE              load this seed (JSON, same shape) instead of reference/seed/seed.json
  --log                    log requests to stdout
  --help                   print this text and exit`;

function integer(flag: string, raw: string): number {
  if (!/^\d+$/.test(raw)) throw new CliError(`${flag}: expected a non-negative integer, got "${raw}"`);
  return Number(raw);
}

function portNumber(flag: string, raw: string): number {
  const port = integer(flag, raw);
  if (port > 65535) throw new CliError(`${flag}: expected 0 to 65535, got ${port}`);
  return port;
}

/** Adds the name of a --variant or --variation once; an unknown name is refused with the known ones. */
function addOnce(flag: '--variant' | '--variation', name: string, known: boolean, catalogue: () => readonly { name: string }[], names: string[]): void {
  if (!known)
    throw new CliError(
      `${flag}: unknown ${flag.slice(2)} "${name}"; known: ${catalogue()
        .map((entry) => entry.name)
        .join(', ')}`,
    );
  if (!names.includes(name)) names.push(name);
}

export function parseCli(argv: readonly string[]): CliCommand {
  let port = 4010;
  const variants: string[] = [];
  const options: ReferenceOptions = {};
  let listing: 'list-variants' | 'list-variations' | 'list-faults' | undefined;
  const variations: string[] = [];
  let realtimePort: number | undefined;
  let seedFile: string | undefined;
  let fault: string | undefined;

  for (let i = 0; i < argv.length; i += 1) {
    const argument = argv[i] ?? '';
    const [flag = '', inline] = argument.startsWith('--') && argument.includes('=') ? argument.split(/=(.*)/s, 2) : [argument];
    const value = (): string => {
      if (inline !== undefined) return inline;
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) throw new CliError(`${flag}: a value is required`);
      i += 1;
      return next;
    };
    const noValue = (): void => {
      if (inline !== undefined) throw new CliError(`${flag}: takes no value`);
    };

    if (flag === '--help' || flag === '-h') {
      noValue();
      return { kind: 'help' };
    } else if (flag === '--list-variants' || flag === '--list-variations' || flag === '--list-faults') {
      noValue();
      listing ??= flag === '--list-variants' ? 'list-variants' : flag === '--list-variations' ? 'list-variations' : 'list-faults';
    } else if (flag === '--fault') {
      const name = value();
      if (findFault(name) === undefined) {
        throw new CliError(`--fault: unknown fault "${name}"; see --list-faults (${FAULTS.length} faults)`);
      }
      if (fault !== undefined && fault !== name) throw new CliError(`--fault: only one fault at a time (got "${fault}" and "${name}")`);
      fault = name;
    } else if (flag === '--log') {
      noValue();
      options.logger = true;
    } else if (flag === '--seed') {
      seedFile = value();
    } else if (flag === '--port') {
      port = portNumber(flag, value());
    } else if (flag === '--realtime-port') {
      realtimePort = portNumber(flag, value());
    } else if (flag === '--variation') {
      const name = value();
      addOnce(flag, name, isVariationName(name), listVariations, variations);
    } else if (flag === '--variant') {
      const name = value();
      addOnce(flag, name, isVariantName(name), listVariants, variants);
    } else if (flag in numericFlags) {
      const option = numericFlags[flag] as NumericOption;
      try {
        options[option] = checkNumericOption(option, integer(flag, value()));
      } catch (error) {
        if (error instanceof ReferenceOptionError) throw new CliError(error.message.replace(option, flag));
        throw error;
      }
    } else {
      throw new CliError(`${argument}: unknown option (see --help)`);
    }
  }
  if (listing !== undefined) return { kind: listing };
  try {
    checkVariations(variations);
  } catch (error) {
    throw new CliError(`--variation: ${(error as Error).message}`);
  }
  return {
    kind: 'serve',
    port,
    ...(realtimePort === undefined ? {} : { realtimePort }),
    options: { ...options, variants },
    ...(variations.length === 0 ? {} : { variations }),
    ...(seedFile === undefined ? {} : { seedFile }),
    ...(fault === undefined ? {} : { fault }),
  };
}
