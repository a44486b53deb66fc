// The ceiling the gateway is measured against: a bare graphql-yoga "hello" server, from the
// project's own graphql-yoga, as its own process. `node bench/yoga-hello.mjs <port>`.
import { createServer } from 'node:http';
import { createSchema, createYoga } from 'graphql-yoga';

const yoga = createYoga({
  schema: createSchema({ typeDefs: 'type Query { hello: String! }', resolvers: { Query: { hello: () => 'world' } } }),
  logging: false,
});
createServer(yoga).listen(Number(process.argv[2]), '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));
