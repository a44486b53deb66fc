// The admin command line: `npm run --silent admin -- <command>`, against the same
// DATABASE_URL and JWT secret as the server. Inputs are checked by the same zod schemas as
// the GraphQL management mutations; arguments and flags a command does not take are refused
// before the database is opened, so a typo never half-runs a command.

import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { ConfigError, describeConfig, loadConfig } from '../config.js';
import { openData, type DataServices } from '../app/data.js';
import { GatewayError, ValidationFailedError } from '../errors/gateway-errors.js';
import { operationNamed, operations } from '../operations/index.js';
import { transactionView } from '../operations/account/transaction.js';
import { outcomeFollowers } from '../app/outcome-followers.js';
import { locatedRefusal, validateInput } from '../pipeline/validate.js';
import {
  bool,
  carrierOrNone,
  checkShape,
  describeValidation,
  number,
  parse,
  USAGE,
  UsageError,
  type Flags,
} from './arguments.js';
import type { CarrierId } from '../carriers/types.js';
import type { ConnectedCarriers } from '../app/carriers.js';
import { assignLineOwner as assign } from '../lines/assign-owner.js';
import { LineRegistry } from '../lines/registry.js';
import { RecoveryLeases } from '../recovery/leases.js';
import { Reconciler } from '../recovery/reconciler.js';
import { recoveryTiming } from '../recovery/timing.js';
import { WAITS_LISTED } from '../recovery/waits.js';

/** Where a CLI run reads its environment and writes its output: the process's own, or a test's. */
export interface CliIo {
  env: NodeJS.ProcessEnv;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

async function run(
  data: DataServices,
  config: ReturnType<typeof loadConfig>,
  io: CliIo,
  [noun, verb, ...rest]: string[],
  flags: Flags,
): Promise<void> {
  const { directory, tokens } = data;
  const print = (value: unknown): void => void io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  const command = `${noun ?? ''} ${verb ?? ''}`.trim();
  switch (command) {
    case 'user create': {
      const input = validateInput(operationNamed('createUser').input, {
        name: rest[0],
        superuser: bool(flags.superuser, 'superuser'),
        carrierPreference: flags.carrier,
      }) as Parameters<typeof directory.createUser>[0];
      return print(await directory.createUser(input));
    }
    case 'user update': {
      const input = validateInput(operationNamed('updateUser').input, {
        name: rest[0],
        superuser: bool(flags.superuser, 'superuser'),
        carrierPreference: carrierOrNone(flags.carrier),
        active: bool(flags.active, 'active'),
      }) as { name: string } & Parameters<typeof directory.updateUser>[1];
      const { name, ...changes } = input;
      return print(await directory.updateUser(name, changes));
    }
    case 'user list':
      return print(await directory.listUsers());
    case 'plan create': {
      const input = validateInput(operationNamed('createPlan').input, {
        planId: rest[0],
        name: flags.name,
        carrierPlanId: flags['carrier-plan-id'],
        carrier: flags.carrier,
        price: number(flags.price),
        description: flags.description,
        wfc: bool(flags.wfc, 'wfc'),
      }) as Parameters<typeof directory.createPlan>[0];
      return print(await directory.createPlan(input));
    }
    case 'plan update': {
      const input = validateInput(operationNamed('updatePlan').input, {
        planId: rest[0],
        name: flags.name,
        carrierPlanId: flags['carrier-plan-id'],
        carrier: carrierOrNone(flags.carrier),
        price: number(flags.price),
        description: flags.description,
        wfc: bool(flags.wfc, 'wfc'),
      }) as { planId: string } & Parameters<typeof directory.updatePlan>[1];
      const { planId, ...changes } = input;
      return print(await directory.updatePlan(planId, changes));
    }
    case 'plan list':
      return print(await directory.listPlans());
    case 'plan authorize': {
      const input = validateInput(operationNamed('authorizePlans').input, {
        user: rest[0],
        planIds: rest.slice(1),
      }) as { user: string; planIds: string[] };
      return print(await directory.authorize(input.user, input.planIds));
    }
    case 'token issue': {
      const input = validateInput(operationNamed('issueToken').input, { user: rest[0], ttl: flags.ttl }) as {
        user: string;
        ttl?: string;
      };
      const issued = await tokens.issue(await directory.userByName(input.user), input.ttl ?? config.TOKEN_TTL);
      io.stdout.write(`${issued.token}\n`);
      return;
    }
    case 'token revoke': {
      if (!rest[0]) throw new UsageError('token revoke needs a token or token id');
      const id = await tokens.revoke(rest[0]);
      return print({ revoked: id });
    }
    case 'line assign':
    case 'line unassign': {
      const input = validateInput(operationNamed('assignLineOwner').input, {
        mdn: rest[0],
        user: verb === 'assign' ? rest[1] : undefined,
        carrier: flags.carrier,
      }) as { mdn: string; user?: string; carrier?: CarrierId };
      // Carriers (the configured URLs, else empty in-process sandboxes) only for a line the registry lacks.
      let connected: ConnectedCarriers | null = null;
      const carriers = async () => {
        const { connectCarriers } = await import('../app/carriers.js');
        connected = await connectCarriers(config);
        return connected.registry;
      };
      try {
        return print(
          await assign(
            { lines: new LineRegistry(data.db, data.invalidation), directory, settings: data.settings, carriers },
            { ...input, user: input.user ?? null },
          ),
        );
      } finally {
        const opened = connected as ConnectedCarriers | null;
        await opened?.registry.close();
        await opened?.sandboxes?.close();
      }
    }
    case 'recovery waiting': {
      // The statement the reconciler's sweep counts them with (src/recovery/waits.ts); read only.
      const waits = await new RecoveryLeases(data.db, 'admin-cli').waits(
        { pendingBefore: new Date(Date.now() - recoveryTiming(config).pendingAfterMs) },
        WAITS_LISTED,
      );
      return print({
        waiting: waits.waiting,
        blocking: waits.blocking,
        blockingWrites: waits.rows.map(({ id, ...row }) => ({ transactionId: id, ...row })),
      });
    }
    case 'recovery abandon': {
      const input = validateInput(operationNamed('abandonTransaction').input, {
        id: rest[0],
        reason: flags.reason,
      }) as { id: string; reason: string };
      // The servers' reconciler, not started here: the writes it releases are due at once, and
      // the servers' next sweep (RECOVERY_SWEEP_MS) re-sends them.
      const recovery = new Reconciler(
        new RecoveryLeases(data.db, 'admin-cli'),
        operations,
        recoveryTiming(config),
        undefined,
        outcomeFollowers,
      );
      const dryRun = flags['dry-run'] ?? false;
      const { transaction, released } = await recovery.abandon(input.id, input.reason, { dryRun });
      return print({ ...(dryRun ? { dryRun } : {}), transaction: transactionView(transaction), released });
    }
    default:
      throw new UsageError(`Unknown command: ${command}`);
  }
}

/** Runs one admin command and answers its exit code; every failure is reported on `io.stderr`, never thrown. */
export async function runCli(argv: string[], io: CliIo = process): Promise<number> {
  try {
    return await runCommand(argv, io);
  } catch (error) {
    io.stderr.write(`${error instanceof ConfigError ? error.message : `admin command failed: ${String(error)}`}\n`);
    return 1;
  }
}

async function runCommand(argv: string[], io: CliIo): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    io.stderr.write(`${(error as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  if (parsed.positionals[0] === 'config') {
    for (const entry of describeConfig())
      io.stdout.write(`${entry.name}\t${entry.defaultValue}\t${entry.description}\n`);
    return 0;
  }
  if (parsed.positionals.length === 0 || parsed.positionals[0] === 'help') {
    io.stdout.write(`${USAGE}\n`);
    return parsed.positionals.length === 0 ? 2 : 0;
  }
  const [noun, verb, ...args] = parsed.positionals;
  try {
    checkShape(`${noun ?? ''} ${verb ?? ''}`.trim(), args, parsed.flags);
  } catch (error) {
    io.stderr.write(`${(error as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  const config = loadConfig(io.env);
  const data = await openData(config);
  try {
    await run(data, config, io, parsed.positionals, parsed.flags);
    return 0;
  } catch (thrown) {
    const error = locatedRefusal(thrown);
    if (error instanceof UsageError) {
      io.stderr.write(`${error.message}\n\n${USAGE}\n`);
      return 2;
    }
    if (error instanceof ValidationFailedError) {
      io.stderr.write(`${describeValidation(noun, error)}\n`);
      return 1;
    }
    if (error instanceof GatewayError) {
      io.stderr.write(`${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    await data.close();
  }
}

// Run as a program (`node dist/cli/main.js`, or through scripts/launch.mjs, which sets argv[1] to
// the entry it runs), not when a test imports runCli.
function isProgramEntry(): boolean {
  try {
    return process.argv[1] !== undefined && pathToFileURL(realpathSync(process.argv[1])).href === import.meta.url;
  } catch {
    return false;
  }
}
if (isProgramEntry()) {
  void runCli(process.argv.slice(2)).then((code) => process.exit(code));
}
