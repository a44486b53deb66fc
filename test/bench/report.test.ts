// The bench's verdict on GraphQL ÷ REST: the same operation compared round by round, not
// through two different bare Yoga runs.

import { describe, expect, it } from 'vitest';
import type { LoadResult } from '../../bench/support/load.js';
import { evaluate, graphqlOverRestOf, type Measured, type ScenarioFigures } from '../../bench/support/report.js';

const run = (requestsPerSecond: number) => ({ requestsPerSecond }) as LoadResult;

function scenario(ratio: number, rounds: [yoga: number, own: number][]): ScenarioFigures {
  return {
    ratio,
    failures: 0,
    rounds: rounds.map(([yoga, own]) => ({ yoga: run(yoga), scenario: run(own), databaseStatements: 0 })),
  } as unknown as ScenarioFigures;
}

// REST steady at ~5,000 req/s, GraphQL at ~4,300, while bare Yoga's runs swing between 9,300 and
// 10,600 (run P's rounds): the rows' ratios, 0.522 and 0.423, put GraphQL at 0.81 of REST; the
// rounds themselves at 0.83–0.91.
const measured = {
  scenarios: {
    'rest-usage': scenario(0.522, [
      [9753, 5091],
      [9310, 4961],
      [10201, 4704],
      [9615, 5132],
      [10126, 4796],
    ]),
    'graphql-usage': scenario(0.423, [
      [9756, 4284],
      [10623, 4287],
      [10050, 4252],
      [10494, 4250],
      [9348, 4349],
    ]),
  },
  memory: { idleMb: 100, peakMb: 200, highestSampleMb: 200 },
} as unknown as Measured;

describe('GraphQL ÷ REST', () => {
  it('is the median of the same rounds’ req/s quotients; the quotient of the ratios is reported beside', () => {
    const figures = graphqlOverRestOf(measured)!;
    expect(figures.sameRound).toBeCloseTo(4287 / 4961, 6); // rounds 0.828, 0.841, 0.864, 0.904, 0.907
    expect(figures.ofRatios).toBeCloseTo(0.423 / 0.522, 6);
  });

  it('is what the verdict judges', () => {
    const verdict = evaluate(measured, { graphqlOverRest: { min: 0.85 } }).find(
      (v) => v.row === 'GraphQL usage ÷ REST usage',
    );
    expect(verdict).toMatchObject({ value: 4287 / 4961, pass: true, target: '≥ 0.85' });
    const failing = evaluate(measured, { graphqlOverRest: { min: 0.87 } }).find(
      (v) => v.row === 'GraphQL usage ÷ REST usage',
    );
    expect(failing?.pass).toBe(false);
  });

  it('is not judged without both scenarios', () => {
    const restOnly = { ...measured, scenarios: { 'rest-usage': measured.scenarios['rest-usage']! } } as Measured;
    expect(graphqlOverRestOf(restOnly)).toBeNull();
    expect(evaluate(restOnly, { graphqlOverRest: { min: 0.85 } }).map((v) => v.row)).not.toContain(
      'GraphQL usage ÷ REST usage',
    );
  });
});
