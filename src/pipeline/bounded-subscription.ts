// A subscription on the event bus whose backlog is bounded. Yoga's PubSub keeps, per
// subscription, every event its consumer has not taken yet (an SSE stream whose socket does not
// drain: a stalled reader, a half-open connection), and its 1,025th throws inside the bus's
// listener: an uncaught exception that ends the process, every request and stream of the replica
// with it. Here a subscription holds at most `limit` events; one more and it stops listening at
// once (nothing more is held for it), and its consumer, once it has taken what it holds, gets
// `lagged()`. The listener never throws, however fast events come, and listens from the moment
// the subscription is made.

import { Repeater } from 'graphql-yoga';

/** What the bus's event target offers a subscription (in-process EventTarget or Redis). */
export interface TopicTarget {
  addEventListener(topic: string, listener: (event: CustomEvent) => void): void;
  removeEventListener(topic: string, listener: (event: CustomEvent) => void): void;
}

const finished: IteratorReturnResult<undefined> = { done: true, value: undefined };

export function boundedSubscription<T>(
  target: TopicTarget,
  topic: string,
  limit: number,
  lagged: () => Error,
): AsyncIterableIterator<T> {
  const repeater = new Repeater<T>((push, stop) => {
    let waiting = 0;
    const taken = () => void waiting--;
    const listener = (event: CustomEvent) => {
      if (waiting >= limit) return void stop(lagged());
      waiting++;
      push(event.detail as T).then(taken, taken);
    };
    target.addEventListener(topic, listener);
    void stop.then(() => target.removeEventListener(topic, listener));
  });
  // A repeater starts (here: listens) at its first `next()`; a subscription listens from the
  // moment it is made, so that what is published before its consumer first asks is not missed
  // (the progress stream subscribes, then reads the job, then waits).
  let first: Promise<IteratorResult<T>> | null = repeater.next();
  // Its rejection is its consumer's to see, when it asks; unasked, it is no unhandled rejection.
  first.catch(() => undefined);
  // A repeater stopped with an error rejects `return()` with it too, and consumers end a
  // subscription with `return()` without a catch (Yoga's `filter` does, when its stream ends):
  // that would be an unhandled rejection. Leaving never fails; `next()` still tells the error.
  const leave = () => repeater.return().catch(() => finished);
  const subscription: AsyncIterableIterator<T> = {
    [Symbol.asyncIterator]: () => subscription,
    next: () => {
      const started = first;
      first = null;
      return started ?? repeater.next();
    },
    return: leave,
    throw: leave,
  };
  return subscription;
}
