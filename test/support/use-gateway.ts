// The file's gateway in one line, instead of a `let` and two hooks in every file: started before
// the file's first test (in-process unless `listen: true`) and closed after its last.

import { afterAll, beforeAll } from 'vitest';
import { startGateway, type TestGateway, type TestGatewayOptions } from './gateway.js';

/**
 * Call it at the top of a test file, before other hooks, so that they find the gateway running.
 * The value stands for the gateway once it has started; reading it before then is an error.
 */
export function useGateway(options: TestGatewayOptions = {}): TestGateway {
  let started: TestGateway | undefined;
  beforeAll(async () => {
    started = await startGateway(options);
  });
  afterAll(async () => {
    await started?.close();
    started = undefined;
  });
  return new Proxy({} as TestGateway, {
    get(_target, key) {
      if (!started)
        throw new Error(
          `useGateway(): the gateway is not running here (reading ${String(key)} outside the file's tests)`,
        );
      return Reflect.get(started, key);
    },
  });
}
