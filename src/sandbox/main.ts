// `npm run sandbox`: both sandbox carriers as a standalone process, configured from the
// environment (docs/sandbox.md). Prints where they listen, never what they accept.

import { sandboxOptionsFromEnvironment, startSandboxCarriers } from './start.js';

async function main(): Promise<void> {
  const options = sandboxOptionsFromEnvironment();
  const sandboxes = await startSandboxCarriers(options);
  console.log(`carrier 321 sandbox listening on ${sandboxes.urls['321']}`);
  console.log(`carrier_b sandbox listening on ${sandboxes.urls.carrier_b}`);

  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    // A second signal means "now": do not wait for the graceful close any longer.
    if (stopping) process.exit(1);
    stopping = true;
    console.log(`${signal} received, closing the sandbox carriers`);
    sandboxes.close().then(
      () => {
        process.exitCode = 0;
      },
      (error: unknown) => {
        console.error('sandbox carriers did not close cleanly:', error instanceof Error ? error.message : error);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error: unknown) => {
  // Start-up errors (a taken port, a bad variable) name the setting, never a credential.
  console.error('sandbox carriers could not start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
