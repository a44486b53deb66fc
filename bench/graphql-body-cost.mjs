// The GraphQL cases of bench/body-cost.mjs, under the name docs and the CHANGELOG cite.
// Usage: node bench/graphql-body-cost.mjs [checkout=.] [reps=5]
process.argv[4] = 'graphql';
await import('./body-cost.mjs');
