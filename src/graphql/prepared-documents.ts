// The direct lane's documents (direct-execution.ts): each text parsed and validated once, as
// Yoga would (GraphQL's rules and graphql-armor's limits with the same settings), and
// remembered with its verdict: a document nothing would refuse, or null for one Yoga must
// answer (it does not parse, validate or fit a limit, or it asks for the schema itself, whose
// exposure is Yoga's call). Bounded by count and by the length of the texts kept, least
// recently used first out, so that a stream of distinct documents from a hostile client costs
// a bounded amount of memory.

import {
  BREAK,
  parse,
  specifiedRules,
  validate,
  visit,
  type DocumentNode,
  type GraphQLSchema,
  type ValidationRule,
} from 'graphql';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import type { OperationCompilation } from './compiled-execution.js';
import { aliasLimit, depthLimit, type RequestLimits } from './use-request-limits.js';

/** A document that passed everything Yoga checks before execution; its sha256 once asked for. */
export interface PreparedDocument {
  document: DocumentNode;
  hash?: string;
  /** Prices of its operations that read no variable, by operation name ('' for the only one). */
  constantCosts?: Map<string, number>;
  /** Its operations as compiled-execution.ts knows them, by operation name ('' for the only one). */
  compiled?: Map<string, OperationCompilation>;
}

export interface PreparedDocuments {
  /** The prepared document, or null when the lane must leave the request to Yoga. */
  get(text: string): PreparedDocument | null;
  /** Documents remembered, and the characters of their texts. */
  readonly size: number;
  readonly characters: number;
}

export interface PreparedDocumentsOptions {
  schema: GraphQLSchema;
  limits: RequestLimits;
  /** Most documents remembered (default 1,000, as Yoga's own document cache). */
  maxDocuments?: number;
  /** Most characters of document text remembered in all (default 4 M, ~8 MB). */
  maxCharacters?: number;
  /** A longer document is prepared on every request and never remembered (default 64 K). */
  longestRemembered?: number;
}

/** True when the document asks for the schema itself (`__schema`, `__type`). */
function asksForSchema(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    Field(node) {
      if (node.name.value !== '__schema' && node.name.value !== '__type') return undefined;
      found = true;
      return BREAK;
    },
  });
  return found;
}

export function createPreparedDocuments(options: PreparedDocumentsOptions): PreparedDocuments {
  const { schema, limits } = options;
  const maxDocuments = options.maxDocuments ?? 1000;
  const maxCharacters = options.maxCharacters ?? 4_000_000;
  const longestRemembered = options.longestRemembered ?? 64 * 1024;
  // The limits as validation rules with armor's defaults otherwise, as its plugins apply them;
  // without an onReject handler a rule throws at the first limit crossed.
  const rules: ValidationRule[] = [
    ...specifiedRules,
    maxDepthRule(depthLimit(limits)),
    maxAliasesRule(aliasLimit(limits)),
    maxDirectivesRule({ n: limits.maxDirectives }),
  ];
  // In insertion order, which a hit renews: the first key is the least recently used.
  const known = new Map<string, PreparedDocument | null>();
  let characters = 0;

  function prepare(text: string): PreparedDocument | null {
    try {
      const document = parse(text, { maxTokens: limits.maxTokens });
      return validate(schema, document, rules).length === 0 && !asksForSchema(document) ? { document } : null;
    } catch {
      return null; // a syntax error or a limit crossed: Yoga answers it
    }
  }

  return {
    get(text) {
      const hit = known.get(text);
      if (hit !== undefined) {
        known.delete(text);
        known.set(text, hit);
        return hit;
      }
      const prepared = prepare(text);
      if (text.length > longestRemembered) return prepared;
      known.set(text, prepared);
      characters += text.length;
      while (known.size > maxDocuments || characters > maxCharacters) {
        const oldest = known.keys().next().value!;
        known.delete(oldest);
        characters -= oldest.length;
      }
      return prepared;
    },
    get size() {
      return known.size;
    },
    get characters() {
      return characters;
    },
  };
}
